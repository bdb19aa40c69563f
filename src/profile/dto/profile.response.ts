import type { ColorMode } from '../../../lib/client-constants.js';
import type { UserDocument } from '../../users/schemas/user.schema.js';

export interface ProfileResponse {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
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
    pendingEmail: user.pendingEmail ?? null,
    colorMode: user.colorMode,
    newsletterOptIn: Boolean(user.newsletterOptIn),
    avatarUrl: user.avatarId ? `/api/avatars/${user.avatarId}` : null,
    createdAt: user.createdAt.toISOString(),
  };
}
