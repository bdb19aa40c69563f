import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { SessionUser } from '../../../lib/api/auth.js';
import type {
  AdminCampaign,
  AdminCampaignList,
  CampaignActionAnswer,
  CampaignPreview,
  NewsletterSettingsAnswer,
} from '../../../lib/api/newsletter-campaigns.js';
import type { MessageAnswer } from '../../../lib/api/newsletter.js';
import { CurrentUser } from '../../auth/decorators/current-user.decorator.js';
import { Roles } from '../../auth/decorators/roles.decorator.js';
import { RateLimit } from '../../rate-limit/rate-limit.decorator.js';
import { CampaignProgressStream } from './campaign-progress.stream.js';
import { CampaignsService } from './campaigns.service.js';
import { CampaignIdParams, CampaignInputDto, NewsletterSettingsDto, TestSendDto } from './dto/campaign.dto.js';
import { NewsletterSettingsService } from './newsletter-settings.service.js';

/** Newsletter campaigns in the administration: drafts, preview, test send, sending and its controls. Every change is audited. */
@Roles('admin')
@Controller('api/admin/newsletter/campaigns')
export class AdminCampaignsController {
  constructor(
    private readonly campaigns: CampaignsService,
    private readonly progress: CampaignProgressStream,
  ) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(): Promise<AdminCampaignList> {
    return this.campaigns.list();
  }

  @Post()
  create(@CurrentUser() actor: SessionUser, @Body() body: CampaignInputDto): Promise<AdminCampaign> {
    return this.campaigns.create(actor, body);
  }

  /** Renders unsaved content too (the editor's "what recipients get" view); changes nothing. */
  @Post('preview')
  @HttpCode(200)
  preview(@CurrentUser() actor: SessionUser, @Body() body: CampaignInputDto): CampaignPreview {
    return this.campaigns.preview(body, actor.email);
  }

  @Get(':id')
  @Header('Cache-Control', 'private, no-store')
  get(@Param() params: CampaignIdParams): Promise<AdminCampaign> {
    return this.campaigns.get(params.id);
  }

  @Put(':id')
  update(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams, @Body() body: CampaignInputDto): Promise<AdminCampaign> {
    return this.campaigns.update(actor, params.id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams): Promise<void> {
    return this.campaigns.remove(actor, params.id);
  }

  /** A real message through the mail server: limited, so the button cannot be used to flood an inbox. */
  @Post(':id/test')
  @HttpCode(200)
  @RateLimit('newsletter-test-send', { scope: 'user', limit: 20, windowSeconds: 3600 })
  testSend(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams, @Body() body: TestSendDto): Promise<MessageAnswer> {
    return this.campaigns.testSend(actor, params.id, body.to);
  }

  @Post(':id/send')
  @HttpCode(200)
  async send(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams): Promise<CampaignActionAnswer> {
    return { message: 'Sending started.', campaign: await this.campaigns.send(actor, params.id) };
  }

  @Post(':id/pause')
  @HttpCode(200)
  async pause(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams): Promise<CampaignActionAnswer> {
    return { message: 'Sending paused.', campaign: await this.campaigns.pause(actor, params.id) };
  }

  @Post(':id/resume')
  @HttpCode(200)
  async resume(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams): Promise<CampaignActionAnswer> {
    return { message: 'Sending resumed.', campaign: await this.campaigns.resume(actor, params.id) };
  }

  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams): Promise<CampaignActionAnswer> {
    return { message: 'Campaign cancelled. Nothing more will be sent.', campaign: await this.campaigns.cancel(actor, params.id) };
  }

  @Post(':id/retry-failed')
  @HttpCode(200)
  retryFailed(@CurrentUser() actor: SessionUser, @Param() params: CampaignIdParams): Promise<CampaignActionAnswer> {
    return this.campaigns.retryFailed(actor, params.id);
  }

  @Get(':id/failed.csv')
  async failedCsv(@Param() params: CampaignIdParams, @Res() response: Response): Promise<void> {
    const rows = this.campaigns.failedCsv(params.id);
    // The first row comes after the campaign was found: a 404 is still a JSON error, not a half CSV.
    const first = await rows.next();
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="campaign-${params.id}-failed.csv"`);
    response.setHeader('Cache-Control', 'private, no-store');
    if (!first.done) response.write(first.value);
    for await (const chunk of rows) {
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
  }

  /** Live progress as server-sent events (`progress` with the campaign, `done` once it is settled). */
  @Get(':id/events')
  async events(@Param() params: CampaignIdParams, @Req() request: Request, @Res() response: Response): Promise<void> {
    await this.progress.stream(params.id, request, response);
  }
}

@Roles('admin')
@Controller('api/admin/newsletter/settings')
export class AdminNewsletterSettingsController {
  constructor(
    private readonly settings: NewsletterSettingsService,
    private readonly campaigns: CampaignsService,
  ) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  get(): Promise<NewsletterSettingsAnswer> {
    return this.campaigns.settingsAnswer();
  }

  @Put()
  async update(@CurrentUser() actor: SessionUser, @Body() body: NewsletterSettingsDto): Promise<NewsletterSettingsAnswer> {
    await this.settings.update(actor, body);
    return this.campaigns.settingsAnswer();
  }
}
