import { Module } from '@nestjs/common';
import { ToolUsageModule } from '../usage/tool-usage.module.js';

/** GA4 Measurement Protocol workbench: validate, send through the server, per-user history. */
@Module({
  imports: [ToolUsageModule],
  controllers: [],
  providers: [],
})
export class Ga4mpModule {}
