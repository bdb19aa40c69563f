import type { Vendor } from './types.js';

/**
 * Vendors whose hits carry Google's consent mode parameters (gcs / gcd). In a module of its own so
 * that a page can import it without the decoders (types.ts re-exports it).
 */
export const GOOGLE_TAG_VENDORS: ReadonlySet<Vendor> = new Set<Vendor>(['ga4', 'google-ads', 'floodlight']);
