import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import type { RegisterRequest } from '../../../lib/api/auth.js';
import { EmailAddress, PersonName } from '../../users/account-fields.js';
import { NewPassword } from '../password-policy.js';

export class RegisterDto implements RegisterRequest {
  @PersonName()
  name!: string;

  @EmailAddress()
  email!: string;

  @NewPassword()
  password!: string;

  @IsOptional()
  @IsBoolean({ message: 'newsletter must be true or false' })
  newsletter?: boolean;

  /** Kept in the browser's sign-up note; only a same-site path is ever followed (safeRedirectPath). */
  @IsOptional()
  @IsString({ message: 'redirect must be a path' })
  @MaxLength(2000, { message: 'redirect is too long' })
  redirect?: string;
}
