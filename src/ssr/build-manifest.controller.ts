import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { BuildManifest } from '../../lib/client-constants.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { PAGE_RENDERER, type PageRenderer } from './page-renderer.js';

@Controller('_app/builds')
export class BuildManifestController {
  constructor(@Inject(PAGE_RENDERER) private readonly renderer: PageRenderer) {}

  /** Polled by open tabs to notice a new deploy; must never be cached anywhere. */
  @Public()
  @Get('latest.json')
  @Header('Cache-Control', 'no-store, max-age=0')
  latest(): BuildManifest {
    return this.renderer.buildManifest();
  }
}
