import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { Validate, type ValidationArguments, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { checkEmailAddress, EMAIL_MESSAGES } from '../../lib/accounts/email-address.js';
import { NAME_MESSAGES, normalisePersonName, personNameProblem } from '../../lib/accounts/person-name.js';

@ValidatorConstraint({ name: 'emailAddress' })
export class EmailAddressRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return checkEmailAddress(value).ok;
  }

  defaultMessage(args: ValidationArguments): string {
    const checked = checkEmailAddress(args.value);
    return checked.ok ? EMAIL_MESSAGES.invalid : checked.message;
  }
}

/**
 * An e-mail address field (lib/accounts/email-address.ts): one message when it is refused, and the
 * normal form (trimmed, ASCII domain, lower case) when it is accepted, so services only ever see that.
 */
export const EmailAddress = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      const checked = checkEmailAddress(value);
      return checked.ok ? checked.address : value;
    }),
    Validate(EmailAddressRule),
  );

@ValidatorConstraint({ name: 'personName' })
export class PersonNameRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return personNameProblem(value) === null;
  }

  defaultMessage(args: ValidationArguments): string {
    return personNameProblem(args.value) ?? NAME_MESSAGES.length;
  }
}

/** A person's name (lib/accounts/person-name.ts): trimmed, one message when it is refused. */
export const PersonName = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => normalisePersonName(value)),
    Validate(PersonNameRule),
  );
