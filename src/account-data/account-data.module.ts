import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AccountDataRegistry } from './account-data.registry.js';

/**
 * Export and deletion of a person's data across modules. Contributors do not import this module:
 * they mark a provider with `@AccountDataPart(phase)` (account-data.contributor.ts) and the
 * registry finds it. Only the module that offers export and deletion (profile) imports this one.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [AccountDataRegistry],
  exports: [AccountDataRegistry],
})
export class AccountDataModule {}
