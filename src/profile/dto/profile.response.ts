import { avatarUrl, type ProfileResponse } from '../../../lib/api/profile.js';
import type { UserDocument } from '../../users/schemas/user.schema.js';

/** The account as its owner sees it: no password hash, no tokens, the avatar as a public URL. */
export function toProfileResponse(user: UserDocument): ProfileResponse {
  return {
    id: user.id as string,
    name: user.name,
    email: user.email,
    role: user.role,
    emailVerified: Boolean(user.emailVerifiedAt),
    hasPassword: user.passwordSet !== false,
    pendingEmail: user.pendingEmail ?? null,
    colorMode: user.colorMode,
    newsletterOptIn: Boolean(user.newsletterOptIn),
    avatarUrl: avatarUrl(user.avatarId),
    createdAt: user.createdAt.toISOString(),
  };
}
