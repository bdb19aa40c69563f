import { DomainException } from '../common/domain.exception.js';

export enum AdminUsersErrorCode {
  UserNotFound = 'USER_NOT_FOUND',
  LastAdmin = 'LAST_ADMIN',
  SelfDisable = 'SELF_DISABLE',
  ConcurrentChange = 'CONCURRENT_CHANGE',
}

// 409 for the refusals: the request is well-formed and allowed, but conflicts with the current
// state of the accounts (another admin has to exist first; somebody else changed it meanwhile).
const STATUS: Record<AdminUsersErrorCode, number> = {
  [AdminUsersErrorCode.UserNotFound]: 404,
  [AdminUsersErrorCode.LastAdmin]: 409,
  [AdminUsersErrorCode.SelfDisable]: 409,
  [AdminUsersErrorCode.ConcurrentChange]: 409,
};

export class AdminUsersException extends DomainException<AdminUsersErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  static notFound(): AdminUsersException {
    return new AdminUsersException(AdminUsersErrorCode.UserNotFound, 'No user with this id');
  }

  static concurrentChange(): AdminUsersException {
    return new AdminUsersException(
      AdminUsersErrorCode.ConcurrentChange,
      'This account was changed by someone else just now. Reload and try again.',
    );
  }
}
