import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { MongooseModule } from '@nestjs/mongoose';
import { UsersModule } from '../users/users.module.js';
import { AuthAccountData } from './auth.account-data.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { CsrfGuard } from './csrf/csrf.guard.js';
import { CsrfService } from './csrf/csrf.service.js';
import { JwtAuthGuard } from './guards/jwt-auth.guard.js';
import { RolesGuard } from './guards/roles.guard.js';
import { JwtStrategy } from './jwt.strategy.js';
import { PageSessionService } from './page-session.service.js';
import { PasswordHasher } from './password-hasher.service.js';
import { AccountTokensService } from './account-tokens.service.js';
import { AccountToken, AccountTokenSchema } from './schemas/account-token.schema.js';
import { Session, SessionSchema } from './schemas/session.schema.js';
import { NewsletterModule } from '../newsletter/newsletter.module.js';
import { SettingsModule } from '../settings/settings.module.js';
import { SecretsModule } from './secrets.module.js';
import { SessionsService } from './sessions.service.js';
import { SignInLimitsService } from './sign-in-limits.service.js';

@Module({
  imports: [
    UsersModule,
    SecretsModule,
    NewsletterModule,
    SettingsModule,
    JwtModule.register({}),
    MongooseModule.forFeature([
      { name: Session.name, schema: SessionSchema },
      { name: AccountToken.name, schema: AccountTokenSchema },
    ]),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    AccountTokensService,
    SessionsService,
    PageSessionService,
    AuthAccountData,
    PasswordHasher,
    SignInLimitsService,
    CsrfService,
    JwtStrategy,
    // Global guards run in this order: CSRF first (cheap, no database), then sign-in, then roles.
    { provide: APP_GUARD, useClass: CsrfGuard },
    { provide: APP_GUARD, useClass: JwtAuthGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
  exports: [SecretsModule, SessionsService, PageSessionService, AuthService, PasswordHasher, AccountTokensService],
})
export class AuthModule {}
