import { Controller, Get, Header, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { AdminSubscriberList } from '../../lib/api/newsletter.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { ListSubscribersQueryDto, SubscriberFilterDto } from './dto/list-subscribers-query.dto.js';
import { NewsletterService } from './newsletter.service.js';

@Roles('admin')
@Controller('api/admin/newsletter')
export class AdminNewsletterController {
  constructor(private readonly newsletter: NewsletterService) {}

  @Get('subscribers')
  @Header('Cache-Control', 'private, no-store')
  list(@Query() query: ListSubscribersQueryDto): Promise<AdminSubscriberList> {
    return this.newsletter.list(query);
  }

  /** Streams the (filtered) list; formula-like cells are neutralised (lib/csv/csv.ts). */
  @Get('subscribers.csv')
  async csv(@Query() query: SubscriberFilterDto, @Res() response: Response): Promise<void> {
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', 'attachment; filename="newsletter-subscribers.csv"');
    response.setHeader('Cache-Control', 'private, no-store');
    for await (const chunk of this.newsletter.csv(query)) {
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
  }
}
