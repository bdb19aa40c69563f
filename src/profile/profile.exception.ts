import { DomainException } from '../common/domain.exception.js';

export enum ProfileErrorCode {
  WrongPassword = 'WRONG_PASSWORD',
  EmailTaken = 'EMAIL_TAKEN',
  SameEmail = 'SAME_EMAIL',
  BadAvatar = 'BAD_AVATAR',
  SignInAgain = 'SIGN_IN_AGAIN',
}

const STATUS: Record<ProfileErrorCode, number> = {
  // The user is signed in; a wrong current password is a refused action, not a lost identity.
  [ProfileErrorCode.WrongPassword]: 403,
  [ProfileErrorCode.EmailTaken]: 409,
  [ProfileErrorCode.SameEmail]: 400,
  [ProfileErrorCode.BadAvatar]: 415,
  [ProfileErrorCode.SignInAgain]: 403,
};

/**
 * The request field each refusal is about (field names of lib/api/profile.ts): the answer carries
 * the message under `fields` too, so the profile's forms show it beside that field, where the user
 * is looking. `SignInAgain` concerns no field: it stays a message for the top of the form.
 */
const FIELD: Partial<Record<ProfileErrorCode, string>> = {
  [ProfileErrorCode.WrongPassword]: 'currentPassword',
  [ProfileErrorCode.EmailTaken]: 'email',
  [ProfileErrorCode.SameEmail]: 'email',
  [ProfileErrorCode.BadAvatar]: 'avatar',
};

export class ProfileException extends DomainException<ProfileErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  override get fields(): Record<string, string[]> | undefined {
    const field = FIELD[this.code];
    return field ? { [field]: [this.message] } : undefined;
  }
}
