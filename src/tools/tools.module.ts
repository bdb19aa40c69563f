import { Module } from '@nestjs/common';
import { Ga4mpModule } from './ga4mp/ga4mp.module.js';
import { LinkerModule } from './linker/linker.module.js';
import { ToolUsageModule } from './usage/tool-usage.module.js';

/** The dashboard tools' server side. The HAR and app-log analysers run in the browser only. */
@Module({
  imports: [ToolUsageModule, Ga4mpModule, LinkerModule],
})
export class ToolsModule {}
