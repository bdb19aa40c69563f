import { applyDecorators } from '@nestjs/common';
import {
  IsBoolean,
  IsEmail,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { isCommonPassword } from '../common-passwords.js';

@ValidatorConstraint({ name: 'notCommonPassword' })
export class NotCommonPassword implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value !== 'string' || !isCommonPassword(value);
  }
  defaultMessage() {
    return 'This password is too common: choose one that is harder to guess (a few unrelated words work well)';
  }
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** The password policy: 12 to 128 characters, no composition rules, not on the common list. */
export const NewPassword = () =>
  applyDecorators(
    IsString({ message: 'Enter a password' }),
    Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, {
      message: `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    }),
    Validate(NotCommonPassword),
  );

export class RegisterDto {
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
}
