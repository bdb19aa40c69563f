import { IsString, Length } from 'class-validator';
import { type LoginRequest, PASSWORD_MAX_LENGTH } from '../../../lib/api/auth.js';
import { EmailAddress } from '../../users/account-fields.js';

export class LoginDto implements LoginRequest {
  @EmailAddress()
  email!: string;

  @IsString({ message: 'Enter your password' })
  @Length(1, PASSWORD_MAX_LENGTH, { message: 'Enter your password' })
  password!: string;
}
