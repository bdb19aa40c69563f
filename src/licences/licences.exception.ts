import { DomainException } from '../common/domain.exception.js';

export enum LicencesErrorCode {
  LicenceNotFound = 'LICENCE_NOT_FOUND',
  ActivationNotFound = 'ACTIVATION_NOT_FOUND',
  DeactivationLimit = 'DEACTIVATION_LIMIT',
  UserNotFound = 'USER_NOT_FOUND',
}

// A licence or device of somebody else is "not found" (404), never "forbidden": the answer must not
// tell whether an id exists. The deactivation budget is a conflict with the licence's state (409).
const STATUS: Record<LicencesErrorCode, number> = {
  [LicencesErrorCode.LicenceNotFound]: 404,
  [LicencesErrorCode.ActivationNotFound]: 404,
  [LicencesErrorCode.DeactivationLimit]: 409,
  [LicencesErrorCode.UserNotFound]: 404,
};

export class LicencesException extends DomainException<LicencesErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  static licenceNotFound(): LicencesException {
    return new LicencesException(LicencesErrorCode.LicenceNotFound, 'No licence with this id');
  }

  static activationNotFound(): LicencesException {
    return new LicencesException(LicencesErrorCode.ActivationNotFound, 'This device is not activated for this licence');
  }

  static deactivationLimit(): LicencesException {
    return new LicencesException(
      LicencesErrorCode.DeactivationLimit,
      'This licence has used up its deactivations for this month. Contact support to reset it.',
    );
  }
}
