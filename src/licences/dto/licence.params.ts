import { IsMongoId, Matches } from 'class-validator';
import { LICENCE_ID } from '../licence-id.js';

const LICENCE_ID_MESSAGE = 'id must be a licence id (lic_ and 26 characters)';

export class LicenceIdParams {
  @Matches(LICENCE_ID, { message: LICENCE_ID_MESSAGE })
  id!: string;
}

export class ActivationParams {
  @Matches(LICENCE_ID, { message: LICENCE_ID_MESSAGE })
  id!: string;

  /** The device's fingerprint, as the licence list shows it. */
  @Matches(/^[0-9a-f]{64}$/, { message: 'activationId must be a device id: 64 lowercase hexadecimal characters' })
  activationId!: string;
}

export class LicenceUserParams {
  @IsMongoId({ message: 'userId must be a 24-character hexadecimal user id' })
  userId!: string;
}
