import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SettingsModule } from '../../settings/settings.module.js';
import { UsersModule } from '../../users/users.module.js';
import { AuthModule } from '../auth.module.js';
import { OidcAccountData } from './oidc.account-data.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcClientService } from './oidc-client.service.js';
import { OidcController } from './oidc.controller.js';
import { OidcService } from './oidc.service.js';
import { OidcIdentity, OidcIdentitySchema } from './schemas/oidc-identity.schema.js';

/** Sign-in with an OpenID Connect provider; its endpoints answer even when none is configured. */
@Module({
  imports: [UsersModule, AuthModule, SettingsModule, MongooseModule.forFeature([{ name: OidcIdentity.name, schema: OidcIdentitySchema }])],
  controllers: [OidcController],
  providers: [OidcService, OidcClientService, OidcAccountsService, OidcAccountData],
})
export class OidcModule {}
