import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SIDE_CONNECTION } from '../database/database.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ENTITLEMENT_SINK } from '../billing/entitlement-sink.js';
import { LICENCE_ACTIVITY } from '../overview/licence-activity.js';
import { DOWNLOAD_ENTITLEMENT } from '../releases/download-entitlement.js';
import { UsersModule } from '../users/users.module.js';
import { AdminLicencesController } from './admin-licences.controller.js';
import { AdminSigningKeysController } from './admin-signing-keys.controller.js';
import { LicenceCryptoService } from './licence-crypto.service.js';
import { LicenceReadCache } from './licence-read-cache.js';
import { LicencesAccountData } from './licences.account-data.js';
import { LicencesController } from './licences.controller.js';
import { LicencesService } from './licences.service.js';
import { LicensingApiController } from './licensing-api.controller.js';
import { LicensingApiService } from './licensing-api.service.js';
import { LicensingKeysController } from './licensing-keys.controller.js';
import { Licence, LicenceSchema } from './schemas/licence.schema.js';
import { LicenceActivation, LicenceActivationSchema } from './schemas/licence-activation.schema.js';
import { LicenceActivationEvent, LicenceActivationEventSchema } from './schemas/licence-activation-event.schema.js';
import { LicenceKey, LicenceKeySchema } from './schemas/licence-key.schema.js';
import { LicenceSeat, LicenceSeatSchema } from './schemas/licence-seat.schema.js';
import { SigningKey, SigningKeySchema } from './schemas/signing-key.schema.js';
import { SeatsService } from './seats.service.js';
import { SigningKeysService } from './signing-keys.service.js';

/**
 * Licence keys, seats, device activations and signed leases (design: docs/licensing.md).
 * Billing hands entitlements to ENTITLEMENT_SINK, releases asks DOWNLOAD_ENTITLEMENT, the admin
 * overview LICENCE_ACTIVITY, the admin settings use SigningKeysService and the server render reads a
 * person's licences through LicencesService. Its CORS is installed by createApp (licensing-cors.ts).
 */
@Module({
  imports: [
    AuthModule,
    UsersModule,
    AuditModule,
    MongooseModule.forFeature([
      { name: Licence.name, schema: LicenceSchema },
      { name: LicenceKey.name, schema: LicenceKeySchema },
      { name: LicenceSeat.name, schema: LicenceSeatSchema },
      { name: LicenceActivation.name, schema: LicenceActivationSchema },
      { name: LicenceActivationEvent.name, schema: LicenceActivationEventSchema },
      { name: SigningKey.name, schema: SigningKeySchema },
    ]),
    // A source's licences read in groups (LicencesService.licencesOf), beside the updates.
    MongooseModule.forFeature([{ name: Licence.name, schema: LicenceSchema }], SIDE_CONNECTION),
  ],
  controllers: [LicensingApiController, LicensingKeysController, LicencesController, AdminLicencesController, AdminSigningKeysController],
  providers: [
    LicenceCryptoService,
    LicenceReadCache,
    SigningKeysService,
    SeatsService,
    LicencesService,
    LicensingApiService,
    LicencesAccountData,
    { provide: ENTITLEMENT_SINK, useExisting: LicencesService },
    { provide: DOWNLOAD_ENTITLEMENT, useExisting: LicencesService },
    { provide: LICENCE_ACTIVITY, useExisting: LicencesService },
  ],
  exports: [ENTITLEMENT_SINK, DOWNLOAD_ENTITLEMENT, LICENCE_ACTIVITY, SigningKeysService, LicencesService],
})
export class LicencesModule {}
