import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ToolUsageController } from './tool-usage.controller.js';
import { ToolUsageDay, ToolUsageDaySchema } from './tool-usage.schema.js';
import { ToolUsageService } from './tool-usage.service.js';

@Module({
  imports: [MongooseModule.forFeature([{ name: ToolUsageDay.name, schema: ToolUsageDaySchema }])],
  controllers: [ToolUsageController],
  providers: [ToolUsageService],
  exports: [ToolUsageService],
})
export class ToolUsageModule {}
