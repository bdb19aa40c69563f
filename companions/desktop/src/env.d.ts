/// <reference types="vite/client" />
import type { LicensingJwks } from '../../../lib/api/licences.js';

declare global {
  /** Set by companions/desktop/vite.config.ts from the build's environment. */
  const __HITSCOPE_PINNED_KEYS__: LicensingJwks | null;
}
