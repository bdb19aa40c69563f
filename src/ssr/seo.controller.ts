import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ROUTE_TABLE } from '../../lib/routes/route-table.js';
import { escapeHtml } from '../../lib/seo/head.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

@Controller()
export class SeoController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Generated from the route table: every public page that opts into the sitemap. */
  @Public()
  @Get('sitemap.xml')
  @Header('Content-Type', 'application/xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  sitemap(): string {
    const urls = ROUTE_TABLE.filter((route) => route.sitemap).map(
      (route) => `  <url><loc>${escapeHtml(this.config.publicUrl + route.path)}</loc></url>`,
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  }

  @Public()
  @Get('robots.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  robots(): string {
    return [
      'User-agent: *',
      'Disallow: /api/',
      'Disallow: /dashboard/',
      'Disallow: /admin',
      'Disallow: /login',
      'Disallow: /register',
      'Disallow: /logout',
      '',
      `Sitemap: ${this.config.publicUrl}/sitemap.xml`,
      '',
    ].join('\n');
  }
}
