/** Where the browser server on `port` keeps the mail its billing instance sent (one JSON line per message). */
export declare function smtpMailboxPath(port: number): string;

/** A real SMTP server on loopback that appends every message it takes to `file`. */
export declare function startSmtpMailbox(file: string): Promise<{ url: string; stop: () => Promise<void> }>;
