import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { Ga4mpHistoryPage, Ga4mpSendResponse, Ga4mpValidateResponse } from '../../../lib/api/ga4mp.js';
import type { SessionUser } from '../../../lib/api/auth.js';
import { CurrentUser } from '../../auth/decorators/current-user.decorator.js';
import { SignedIn } from '../../auth/decorators/roles.decorator.js';
import { RateLimit } from '../../rate-limit/rate-limit.decorator.js';
import { HistoryIdParams, HistoryQueryDto, SendPayloadDto, ValidatePayloadDto } from './dto/ga4mp-payload.dto.js';
import { Ga4mpHistoryService } from './ga4mp-history.service.js';
import { Ga4mpService } from './ga4mp.service.js';

@Controller('api/tools/ga4mp')
export class Ga4mpController {
  constructor(
    private readonly ga4mp: Ga4mpService,
    private readonly history: Ga4mpHistoryService,
  ) {}

  /** 200 with GA4's validation shape, also when it lists problems: a bad payload is the answer, not an error. */
  @SignedIn()
  @RateLimit('ga4mp-validate', { scope: 'user', limit: 600, windowSeconds: 3600 })
  @Post('validate')
  @HttpCode(200)
  validate(@Body() dto: ValidatePayloadDto): Promise<Ga4mpValidateResponse> {
    return this.ga4mp.validate(dto.query, dto.body);
  }

  @SignedIn()
  @RateLimit('ga4mp-send', { scope: 'user', limit: 120, windowSeconds: 3600 })
  @Post('send')
  @HttpCode(200)
  send(@CurrentUser() user: SessionUser, @Body() dto: SendPayloadDto): Promise<Ga4mpSendResponse> {
    return this.ga4mp.send(user.id, dto);
  }

  @SignedIn()
  @Get('history')
  list(@CurrentUser() user: SessionUser, @Query() query: HistoryQueryDto): Promise<Ga4mpHistoryPage> {
    return this.history.list(user.id, query.page, query.pageSize);
  }

  @SignedIn()
  @Delete('history/:id')
  @HttpCode(204)
  async remove(@CurrentUser() user: SessionUser, @Param() params: HistoryIdParams): Promise<void> {
    await this.history.delete(user.id, params.id);
  }

  @SignedIn()
  @Delete('history')
  @HttpCode(204)
  async clear(@CurrentUser() user: SessionUser): Promise<void> {
    await this.history.deleteAllForUser(user.id);
  }
}
