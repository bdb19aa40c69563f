import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The session behind a request, as the global JWT guard verified it. */
export interface CurrentSessionInfo {
  id: string;
  /** When the person signed in; refreshing keeps it, so it dates the sign-in itself. */
  signedInAt: Date;
}

const verifiedSessions = new WeakMap<Request, CurrentSessionInfo>();

/** Called by the global JWT guard once the session is verified, beside setting the user. */
export function rememberVerifiedSession(request: Request, session: CurrentSessionInfo): void {
  verifiedSessions.set(request, session);
}

/** For handlers behind the guard (never `@Public()`), where a verified session always exists. */
export const CurrentSession = createParamDecorator((_data: unknown, context: ExecutionContext): CurrentSessionInfo => {
  const session = verifiedSessions.get(context.switchToHttp().getRequest<Request>());
  if (!session) throw new Error('@CurrentSession() needs a handler behind the JWT guard');
  return session;
});
