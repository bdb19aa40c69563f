import { Module } from '@nestjs/common';
import { AccountDataModule } from '../account-data/account-data.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { NewsletterModule } from '../newsletter/newsletter.module.js';
import { UsersModule } from '../users/users.module.js';
import { ProfileAccountData } from './profile.account-data.js';
import { ProfileController } from './profile.controller.js';
import { ProfileService } from './profile.service.js';

@Module({
  imports: [UsersModule, AuthModule, AccountDataModule, NewsletterModule],
  controllers: [ProfileController],
  providers: [ProfileService, ProfileAccountData],
})
export class ProfileModule {}
