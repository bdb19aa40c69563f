import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { LicencesModule } from '../licences/licences.module.js';
import { AdminReleasesController } from './admin-releases.controller.js';
import { CompanionBuildsPublisher } from './companion-builds.js';
import { ReleasesApiController } from './releases-api.controller.js';
import { ReleasesController } from './releases.controller.js';
import { ReleasesService } from './releases.service.js';
import { Release, ReleaseSchema } from './schemas/release.schema.js';

/**
 * Releases (design: docs/releases.md). Asks the catalogue whether a product's downloads
 * are free (an administrator's switch). Uses the licences module only through what it
 * exports: DOWNLOAD_ENTITLEMENT (may this person or key download?) and the signing key service (the
 * builds are signed with the licensing key, so the apps verify them with the JWKS they pin).
 *
 * Account data: nothing here is personal. A release's `downloads` is one counter per build, not per
 * person (no download log is kept), so there is nothing to export or delete for an account and the
 * module registers no AccountDataPart (docs/releases.md).
 *
 * The companion packages `npm run build` writes (dist/companions) are published by
 * CompanionBuildsPublisher: on a fresh site's first start, and by `npm run publish:companions`.
 */
@Module({
  imports: [
    AuthModule,
    AuditModule,
    CatalogueModule,
    LicencesModule,
    MongooseModule.forFeature([{ name: Release.name, schema: ReleaseSchema }]),
  ],
  controllers: [ReleasesApiController, ReleasesController, AdminReleasesController],
  providers: [ReleasesService, CompanionBuildsPublisher],
  exports: [CompanionBuildsPublisher],
})
export class ReleasesModule {}
