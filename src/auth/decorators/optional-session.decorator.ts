import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { SessionUser } from '../../../lib/api/auth.js';
import { Public } from './public.decorator.js';

export const READS_SESSION_KEY = 'hitscope:readsSession';

/**
 * A public handler that still learns who is signed in, when somebody is: the session is verified as
 * for any other route, but its absence is not a 401. The handler decides (a free download needs no
 * session, a licensed one does). Public for the route inventory: anybody reaches the handler.
 */
export const OptionalSession = () => applyDecorators(Public(), SetMetadata(READS_SESSION_KEY, true));

/** The signed-in user of an {@link OptionalSession} handler, or null for an anonymous caller. */
export const SessionUserIfAny = createParamDecorator(
  (_data: unknown, context: ExecutionContext): SessionUser | null =>
    context.switchToHttp().getRequest<Request & { user?: SessionUser }>().user ?? null,
);
