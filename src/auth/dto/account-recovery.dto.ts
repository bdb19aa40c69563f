import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { NewPassword } from './register.dto.js';

export class ForgotPasswordDto {
  @IsEmail({}, { message: 'Enter a valid e-mail address' })
  @MaxLength(254, { message: 'E-mail address is too long' })
  email!: string;
}

export class ResetPasswordDto {
  @IsString()
  @Matches(/^[\w-]{43}$/, { message: 'This reset link is malformed: request a new one' })
  token!: string;

  @NewPassword()
  password!: string;
}

export class VerifyEmailQueryDto {
  @IsString()
  @MaxLength(100)
  token!: string;
}
