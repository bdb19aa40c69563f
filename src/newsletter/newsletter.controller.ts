import { Body, Controller, Get, Header, HttpCode, Ip, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CONFIRMED_MESSAGE, type MessageAnswer, SUBSCRIBE_MESSAGE, UNSUBSCRIBED_MESSAGE } from '../../lib/api/newsletter.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { SkipCsrf } from '../auth/decorators/skip-csrf.decorator.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { SubscribeDto, TokenDto } from './dto/subscribe.dto.js';
import { NewsletterService } from './newsletter.service.js';

const HOUR = 3600;

@Controller('api/newsletter')
export class NewsletterController {
  constructor(private readonly newsletter: NewsletterService) {}

  /**
   * Anonymous, but a browser write like registration: the CSRF guard applies (the page fetches a
   * token from /api/auth/csrf first), so another site cannot sign a visitor's address up. The
   * answer never depends on the address's state. Per address, NewsletterService throttles mails.
   */
  @Public()
  @RateLimit('newsletter-subscribe', { scope: 'ip', limit: 20, windowSeconds: HOUR })
  @Post('subscribe')
  @HttpCode(202)
  async subscribe(@Body() body: SubscribeDto, @Ip() ip: string): Promise<MessageAnswer> {
    await this.newsletter.subscribe({ email: body.email, source: 'home', ip });
    return { message: SUBSCRIBE_MESSAGE };
  }

  /** The button of the confirm page. A GET never confirms: link scanners follow every link in a mail. */
  @Public()
  @RateLimit('newsletter-confirm', { scope: 'ip', limit: 30, windowSeconds: HOUR })
  @Post('confirm')
  @HttpCode(200)
  async confirm(@Body() body: TokenDto, @Ip() ip: string): Promise<MessageAnswer> {
    await this.newsletter.confirm(body.token, ip);
    return { message: CONFIRMED_MESSAGE };
  }

  /**
   * The List-Unsubscribe URL opened in a browser (or fetched by a scanner): it changes nothing and
   * only leads to the page with the one "Unsubscribe" button.
   */
  @Public()
  @Get('unsubscribe')
  unsubscribePage(@Query() query: TokenDto, @Res() response: Response): void {
    response.setHeader('Cache-Control', 'no-store');
    response.redirect(303, `/newsletter/unsubscribe?token=${encodeURIComponent(query.token)}`);
  }

  /**
   * RFC 8058 one-click unsubscribe. The mailbox provider POSTs `List-Unsubscribe=One-Click` with no
   * cookie, no session and no CSRF token, and must succeed without any further step, so the CSRF
   * guard is skipped here: the signed token in the URL is the only credential, and it can do exactly
   * one thing, unsubscribe its own address. A forged cross-site POST would need that token, which
   * only the mailbox has; and the worst it could do is what the owner can do with one click anyway.
   */
  @Public()
  @SkipCsrf()
  @RateLimit('newsletter-unsubscribe', { scope: 'ip', limit: 60, windowSeconds: HOUR })
  @Post('unsubscribe')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async unsubscribe(@Query() query: TokenDto): Promise<MessageAnswer> {
    await this.newsletter.unsubscribeByToken(query.token);
    return { message: UNSUBSCRIBED_MESSAGE };
  }
}
