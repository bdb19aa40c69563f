import { Module } from '@nestjs/common';
import { ToolUsageModule } from '../usage/tool-usage.module.js';
import { LinkerController } from './linker.controller.js';
import { LinkerService } from './linker.service.js';

/** Google tag `_gl` linker: decode, verify and encode. */
@Module({
  imports: [ToolUsageModule],
  controllers: [LinkerController],
  providers: [LinkerService],
})
export class LinkerModule {}
