import { Body, Controller, Get, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RouteRuleCheckResponse, RouteRulesResponse } from '../../lib/api/route-rules.js';
import type { SessionUser } from '../../lib/api/auth.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { RouteRuleQueryDto } from './dto/route-rule-query.dto.js';
import { UpdateRouteRulesDto } from './dto/update-route-rules.dto.js';
import { RouteRulesService } from './route-rules.service.js';

@Controller('api')
export class RouteRulesController {
  constructor(private readonly routeRules: RouteRulesService) {}

  /** Asked by the browser before each client-side navigation; shared caches may keep answers briefly. */
  @Public()
  @Get('route-rules')
  async check(@Query() query: RouteRuleQueryDto, @Res({ passthrough: true }) response: Response): Promise<RouteRuleCheckResponse> {
    const url = new URL(query.path, 'http://path.invalid');
    response.setHeader('Cache-Control', 'public, max-age=30');
    return { redirect: await this.routeRules.resolve(url.pathname, url.search) };
  }

  @Roles('admin')
  @Get('admin/route-rules')
  async list(): Promise<RouteRulesResponse> {
    return { rules: await this.routeRules.list() };
  }

  @Roles('admin')
  @Put('admin/route-rules')
  async replace(@CurrentUser() actor: SessionUser, @Body() body: UpdateRouteRulesDto): Promise<RouteRulesResponse> {
    return { rules: await this.routeRules.replace(actor, body.rules) };
  }
}
