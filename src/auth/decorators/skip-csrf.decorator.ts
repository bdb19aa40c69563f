import { SetMetadata } from '@nestjs/common';

export const SKIP_CSRF_KEY = 'hitscope:skipCsrf';

/** For writes that are not cookie-authenticated (signed webhooks); never for browser endpoints. */
export const SkipCsrf = () => SetMetadata(SKIP_CSRF_KEY, true);
