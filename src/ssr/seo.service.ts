import { Inject, Injectable } from '@nestjs/common';
import { ROUTE_TABLE } from '../../lib/routes/route-table.js';
import { escapeHtml } from '../../lib/seo/head.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** The files crawlers read, built from the route table and the public URL. */
@Injectable()
export class SeoService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Every public page that opts into the sitemap. */
  sitemap(): string {
    const urls = ROUTE_TABLE.filter((route) => route.sitemap).map(
      (route) => `  <url><loc>${escapeHtml(this.config.publicUrl + route.path)}</loc></url>`,
    );
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  }

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
