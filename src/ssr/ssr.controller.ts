import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { COLOR_MODE_COOKIE, parseColorMode } from '../../lib/client-constants.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { setAuthCookies } from '../auth/auth-cookies.js';
import { authProvidersOf } from '../auth/oidc/auth-providers.js';
import { REFRESH_COOKIE, SESSION_COOKIE, SessionsService } from '../auth/sessions.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { RouteRulesService } from '../settings/route-rules.service.js';
import { assembleDocument } from './html-document.js';
import { PAGE_RENDERER, type PageRenderer } from './page-renderer.js';

/** Paths that belong to the server itself: an unknown one is a JSON 404, never the HTML app. */
export const RESERVED_PATH = /^\/(api|health|_app)(\/|$)/;

/**
 * The catch-all page route. It lives in its own module, imported last, so every API route is
 * registered before it (an earlier catch-all would shadow them).
 */
@Controller()
export class SsrController {
  constructor(
    @Inject(PAGE_RENDERER) private readonly renderer: PageRenderer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly routeRules: RouteRulesService,
  ) {}

  @Public()
  @Get('{*path}')
  async render(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (RESERVED_PATH.test(request.path)) throw new NotFoundException(`Cannot GET ${request.path}`);

    const cookies = (request.cookies ?? {}) as Record<string, string>;
    let user = await this.sessions.resolveAccessToken(cookies[SESSION_COOKIE]);
    if (!user && cookies[REFRESH_COOKIE]) {
      // The access token expired (15 min) but the session lives on: rotate before rendering, so a
      // returning visitor sees their dashboard rather than a sign-in redirect.
      const tokens = await this.sessions.refresh(cookies[REFRESH_COOKIE]);
      if (tokens) {
        setAuthCookies(response, this.config, tokens);
        user = tokens.user;
      }
    }
    const colorMode = parseColorMode(cookies[COLOR_MODE_COOKIE]);
    const nonce = response.locals.cspNonce as string;
    // Loaders read data through the services directly: no HTTP round-trip to ourselves.
    const data: DataSource = {
      me: async () => user,
      routeRule: (pathname, search) => this.routeRules.resolve(pathname, search),
      authProviders: async () => authProvidersOf(this.config),
    };

    const entry = await this.renderer.entry();
    const result = await entry.render({ url: request.originalUrl, publicUrl: this.config.publicUrl, nonce, colorMode, data });
    if (result.type === 'redirect') {
      response.setHeader('Cache-Control', 'no-store');
      return response.redirect(result.status, result.location);
    }

    const html = assembleDocument(await this.renderer.template(request.originalUrl), {
      ...result,
      preloadLinks: this.renderer.preloadLinks(result.pageModules),
      nonce,
      colorMode,
    });
    response
      .status(result.status)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Cache-Control', 'no-cache, private')
      .setHeader('Vary', 'Cookie')
      .send(html);
  }
}
