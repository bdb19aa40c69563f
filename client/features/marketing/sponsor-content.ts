export const SPONSOR_EMAIL = 'sponsors@hitscope.dev';

export const mailto = (subject: string) => `mailto:${SPONSOR_EMAIL}?subject=${encodeURIComponent(subject)}`;

// Tiers and sponsors are site settings (edited in /admin/settings, read with `sponsorsQuery`).
