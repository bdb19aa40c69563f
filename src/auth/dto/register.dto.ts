import { IsBoolean, IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import type { RegisterRequest } from '../../../lib/api/auth.js';
import { NewPassword } from '../password-policy.js';

export class RegisterDto implements RegisterRequest {
  @IsString({ message: 'Enter your name' })
  @Length(1, 100, { message: 'Name must be 1 to 100 characters' })
  name!: string;

  @IsEmail({}, { message: 'Enter a valid e-mail address' })
  @MaxLength(254, { message: 'E-mail address is too long' })
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
