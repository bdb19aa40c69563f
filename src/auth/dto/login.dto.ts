import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { type LoginRequest, PASSWORD_MAX_LENGTH } from '../../../lib/api/auth.js';

export class LoginDto implements LoginRequest {
  @IsEmail({}, { message: 'Enter a valid e-mail address' })
  @MaxLength(254, { message: 'E-mail address is too long' })
  email!: string;

  @IsString({ message: 'Enter your password' })
  @Length(1, PASSWORD_MAX_LENGTH, { message: 'Enter your password' })
  password!: string;
}
