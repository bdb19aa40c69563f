import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { OidcModule } from '../auth/oidc/oidc.module.js';
import { Ga4mpModule } from '../tools/ga4mp/ga4mp.module.js';
import { UsersModule } from '../users/users.module.js';
import { ProfileController } from './profile.controller.js';
import { ProfileService } from './profile.service.js';

@Module({
  imports: [UsersModule, AuthModule, OidcModule, AuditModule, Ga4mpModule],
  controllers: [ProfileController],
  providers: [ProfileService],
})
export class ProfileModule {}
