import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { GA4MP_ORIGINS } from '../../../lib/tools/ga4mp/endpoint.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ToolUsageModule } from '../usage/tool-usage.module.js';
import { Ga4mpAccountData } from './ga4mp.account-data.js';
import { Ga4mpHistoryService } from './ga4mp-history.service.js';
import { Ga4mpController } from './ga4mp.controller.js';
import { Ga4mpService } from './ga4mp.service.js';
import { FetchGa4mpTransport, GA4MP_TRANSPORT } from './ga4mp.transport.js';
import { Ga4mpHistory, Ga4mpHistorySchema } from './schemas/ga4mp-history.schema.js';

/** The longest wait for GA4. */
export const GA4MP_TIMEOUT_MS = 10_000;

/** GA4 Measurement Protocol workbench: validate, send through the server, per-user history. */
@Module({
  imports: [ToolUsageModule, MongooseModule.forFeature([{ name: Ga4mpHistory.name, schema: Ga4mpHistorySchema }])],
  controllers: [Ga4mpController],
  providers: [
    Ga4mpService,
    Ga4mpHistoryService,
    Ga4mpAccountData,
    {
      provide: GA4MP_TRANSPORT,
      // Always Google's origins. The wait stays a second under REQUEST_TIMEOUT_MS so that a slow GA4
      // gets its own readable 504 instead of the generic 503 of the request timeout.
      useFactory: (config: AppConfig) =>
        new FetchGa4mpTransport(GA4MP_ORIGINS, Math.max(250, Math.min(GA4MP_TIMEOUT_MS, config.requestTimeoutMs - 1000))),
      inject: [APP_CONFIG],
    },
  ],
})
export class Ga4mpModule {}
