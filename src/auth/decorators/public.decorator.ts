import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'hitscope:isPublic';

/** Opts a handler out of the global sign-in requirement. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
