import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ROLES, type Role } from '../../../lib/api/auth.js';

export const ROLES_KEY = 'hitscope:roles';

/** Restricts a handler to signed-in users holding one of `roles`. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

/** Any signed-in user, whatever their role. */
export const SignedIn = () => applyDecorators(Roles(...ROLES));
