export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What the API (`GET /api/auth/me`) and the page guards know about the signed-in user. */
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
}
