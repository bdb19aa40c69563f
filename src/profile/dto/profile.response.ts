import type { ColorMode } from '../../../lib/client-constants.js';
import type { UserDocument } from '../../users/schemas/user.schema.js';

export interface ProfileResponse {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  /** False for accounts that sign in only through an OpenID Connect provider. */
  hasPassword: boolean;
  pendingEmail: string | null;
  colorMode: ColorMode;
  newsletterOptIn: boolean;
  avatarUrl: string | null;
  createdAt: string;
}

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
    avatarUrl: user.avatarId ? `/api/avatars/${user.avatarId}` : null,
    createdAt: user.createdAt.toISOString(),
  };
}
