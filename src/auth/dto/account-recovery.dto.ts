import { IsString, Matches, MaxLength } from 'class-validator';
import type { ForgotPasswordRequest, ResetPasswordRequest, VerifyEmailQuery } from '../../../lib/api/auth.js';
import { EmailAddress } from '../../users/account-fields.js';
import { NewPassword } from '../password-policy.js';

export class ForgotPasswordDto implements ForgotPasswordRequest {
  @EmailAddress()
  email!: string;
}

export class ResetPasswordDto implements ResetPasswordRequest {
  @IsString()
  @Matches(/^[\w-]{43}$/, { message: 'This reset link is malformed: request a new one' })
  token!: string;

  @NewPassword()
  password!: string;
}

export class VerifyEmailQueryDto implements VerifyEmailQuery {
  @IsString()
  @MaxLength(100)
  token!: string;
}
