import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AppSecret, AppSecretSchema } from './schemas/app-secret.schema.js';
import { SecretsService } from './secrets.service.js';

/**
 * The signing secret on its own, so that a module the auth module itself depends on (the
 * newsletter, which registration subscribes to) can derive its keys without importing AuthModule.
 * AuthModule re-exports it: everything that imported SecretsService through AuthModule still does.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: AppSecret.name, schema: AppSecretSchema }])],
  providers: [SecretsService],
  exports: [SecretsService],
})
export class SecretsModule {}
