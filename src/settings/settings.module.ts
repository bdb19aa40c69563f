import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { RouteRulesController } from './route-rules.controller.js';
import { RouteRulesService } from './route-rules.service.js';
import { RouteRuleSet, RouteRuleSetSchema } from './schemas/route-rules.schema.js';

@Module({
  imports: [MongooseModule.forFeature([{ name: RouteRuleSet.name, schema: RouteRuleSetSchema }])],
  controllers: [RouteRulesController],
  providers: [RouteRulesService],
  exports: [RouteRulesService],
})
export class SettingsModule {}
