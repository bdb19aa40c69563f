import { DECODERS } from './decoders/index.js';
import type { Vendor, VendorKind } from './types.js';
import type { VendorDecoder } from './vendor.js';

/** Every registered decoder, typed loosely (for code that walks them all). */
export const VENDOR_DECODERS: readonly VendorDecoder<Vendor>[] = DECODERS;

/** Each vendor's name as people know it ("Google Analytics 4", "Adobe Analytics"). */
export const VENDOR_LABELS = Object.fromEntries(DECODERS.map((decoder) => [decoder.id, decoder.label])) as Record<Vendor, string>;

/** Each vendor's kind: analytics, ads, tag-manager or experience. */
export const VENDOR_KINDS = Object.fromEntries(DECODERS.map((decoder) => [decoder.id, decoder.kind])) as Record<Vendor, VendorKind>;
