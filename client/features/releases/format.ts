const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** "24 Nov 2026" (UTC, so the server and the browser agree). */
export const formatReleaseDate = (iso: string) => dateFormat.format(new Date(iso));
