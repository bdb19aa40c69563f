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

export class ProfileException extends DomainException<ProfileErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }
}
