import { Equals, IsBoolean, IsIn, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../../../lib/api/auth.js';
import {
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  DELETE_ACCOUNT_CONFIRMATION,
  type DeleteAccountRequest,
  type UpdateProfileRequest,
} from '../../../lib/api/profile.js';
import { COLOR_MODES, type ColorMode } from '../../../lib/client-constants.js';
import { NewPassword } from '../../auth/password-policy.js';
import { EmailAddress, PersonName } from '../../users/account-fields.js';

/** Absent means "leave it as it is"; null is a value, and refused like any other wrong type (`@IsOptional` lets it through). */
const unlessAbsent = ValidateIf((_body: object, value: unknown) => value !== undefined);

export class UpdateProfileDto implements UpdateProfileRequest {
  @unlessAbsent
  @PersonName()
  name?: string;

  @unlessAbsent
  @IsIn(COLOR_MODES, { message: 'Colour mode must be system, light or dark' })
  colorMode?: ColorMode;

  @unlessAbsent
  @IsBoolean({ message: 'newsletterOptIn must be true or false' })
  newsletterOptIn?: boolean;
}

class CurrentPassword {
  @IsString({ message: 'Enter your current password' })
  @Length(1, PASSWORD_MAX_LENGTH, { message: 'Enter your current password' })
  currentPassword!: string;
}

export class ChangeEmailDto extends CurrentPassword implements ChangeEmailRequest {
  @EmailAddress()
  email!: string;
}

export class ChangePasswordDto extends CurrentPassword implements ChangePasswordRequest {
  @NewPassword()
  newPassword!: string;

  @IsOptional()
  @IsBoolean()
  signOutOtherSessions?: boolean;
}

/** `currentPassword` is required unless the account has no password of its own (OpenID sign-in). */
export class DeleteAccountDto implements DeleteAccountRequest {
  // Absent is allowed (accounts without a password); null or any other type is a 400, like a wrong type.
  @ValidateIf((body: DeleteAccountDto) => body.currentPassword !== undefined)
  @IsString({ message: 'Enter your current password' })
  @Length(1, PASSWORD_MAX_LENGTH, { message: 'Enter your current password' })
  currentPassword?: string;

  @Equals(DELETE_ACCOUNT_CONFIRMATION, { message: `Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm` })
  confirm!: string;
}
