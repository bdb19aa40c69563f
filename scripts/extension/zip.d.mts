export function zip(files: Array<{ path: string; data: Buffer }>): Buffer;
