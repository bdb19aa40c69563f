import { Equals, IsString, Length } from 'class-validator';
import type { SubscribeRequest, TokenRequest } from '../../../lib/api/newsletter.js';
import { EmailAddress } from '../../users/account-fields.js';

export class SubscribeDto implements SubscribeRequest {
  @EmailAddress()
  email!: string;

  /** The ticked box: there is no sign-up without it. */
  @Equals(true, { message: 'Tick the box to agree to receive the newsletter' })
  consent!: boolean;
}

export class TokenDto implements TokenRequest {
  @IsString({ message: 'token is required' })
  @Length(20, 2000, { message: 'token is not a valid link token' })
  token!: string;
}
