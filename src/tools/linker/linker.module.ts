import { Module } from '@nestjs/common';
import { ToolUsageModule } from '../usage/tool-usage.module.js';

/** Google tag `_gl` linker: decode, verify and encode. */
@Module({
  imports: [ToolUsageModule],
  controllers: [],
  providers: [],
})
export class LinkerModule {}
