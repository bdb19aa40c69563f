import { DomainException } from '../common/domain.exception.js';

export enum ReleasesErrorCode {
  ReleaseNotFound = 'RELEASE_NOT_FOUND',
  DuplicateVersion = 'RELEASE_VERSION_EXISTS',
  LicenceRequired = 'LICENCE_REQUIRED',
  SignInRequired = 'SIGN_IN_REQUIRED',
  LicenceKeyRequired = 'LICENCE_KEY_REQUIRED',
  RangeNotSatisfiable = 'RANGE_NOT_SATISFIABLE',
  UploadInvalid = 'RELEASE_UPLOAD_INVALID',
  UploadTooLarge = 'RELEASE_UPLOAD_TOO_LARGE',
}

// A yanked release is "not found" (404) to downloaders: it is withdrawn, whoever asks. A missing
// licence is 403 for a signed-in person (they are known, they lack the right); a missing key on
// the apps' endpoint is 401 (no credential at all).
const STATUS: Record<ReleasesErrorCode, number> = {
  [ReleasesErrorCode.ReleaseNotFound]: 404,
  [ReleasesErrorCode.DuplicateVersion]: 409,
  [ReleasesErrorCode.LicenceRequired]: 403,
  [ReleasesErrorCode.SignInRequired]: 401,
  [ReleasesErrorCode.LicenceKeyRequired]: 401,
  [ReleasesErrorCode.RangeNotSatisfiable]: 416,
  [ReleasesErrorCode.UploadInvalid]: 400,
  [ReleasesErrorCode.UploadTooLarge]: 413,
};

export class ReleasesException extends DomainException<ReleasesErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  static notFound(): ReleasesException {
    return new ReleasesException(ReleasesErrorCode.ReleaseNotFound, 'No published release with this id');
  }

  static duplicate(label: string): ReleasesException {
    return new ReleasesException(
      ReleasesErrorCode.DuplicateVersion,
      `${label} exists already. A published version never changes: upload it as a new version.`,
    );
  }

  static licenceRequired(): ReleasesException {
    return new ReleasesException(ReleasesErrorCode.LicenceRequired, 'Downloading this product needs a valid licence for it.');
  }

  /** The site's download of a product that is not free, by nobody signed in. */
  static signInRequired(): ReleasesException {
    return new ReleasesException(
      ReleasesErrorCode.SignInRequired,
      'Sign in with an account that holds a licence to download this product.',
    );
  }

  static keyRequired(): ReleasesException {
    return new ReleasesException(ReleasesErrorCode.LicenceKeyRequired, 'Send the licence key as "Authorization: License <key>".');
  }

  static keyRefused(): ReleasesException {
    return new ReleasesException(ReleasesErrorCode.LicenceRequired, 'This licence key does not allow downloading this product.');
  }

  static invalidUpload(message: string): ReleasesException {
    return new ReleasesException(ReleasesErrorCode.UploadInvalid, message);
  }

  static tooLarge(limit: number): ReleasesException {
    return new ReleasesException(ReleasesErrorCode.UploadTooLarge, `A build can be at most ${limit} bytes.`);
  }
}
