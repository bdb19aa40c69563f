import { avatarUrl, type ProfileResponse } from '../../../lib/api/profile.js';
import type { SubscriberState } from '../../../lib/api/newsletter.js';
import type { UserDocument } from '../../users/schemas/user.schema.js';

/**
 * The account as its owner sees it: no password hash, no tokens, the avatar as a public URL. The
 * newsletter opt-in is the state of the account's address on the subscriber list when it is given
 * (the one source of truth: an unsubscribe link followed from a mail turns the box off).
 */
export function toProfileResponse(user: UserDocument, newsletterState?: SubscriberState | null): ProfileResponse {
  return {
    id: user.id as string,
    name: user.name,
    email: user.email,
    role: user.role,
    emailVerified: Boolean(user.emailVerifiedAt),
    hasPassword: user.passwordSet !== false,
    pendingEmail: user.pendingEmail ?? null,
    colorMode: user.colorMode,
    newsletterOptIn:
      newsletterState === undefined ? Boolean(user.newsletterOptIn) : newsletterState === 'pending' || newsletterState === 'confirmed',
    newsletterState: newsletterState ?? null,
    avatarUrl: avatarUrl(user.avatarId),
    createdAt: user.createdAt.toISOString(),
  };
}
