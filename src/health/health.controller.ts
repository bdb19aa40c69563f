import { Controller, Get, Header, HttpStatus, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../auth/decorators/public.decorator.js';
import { FastLane } from '../fast-lane/fast-lane.js';
import { HealthService, type Readiness } from './health.service.js';

@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: the process answers (in the fast lane, src/fast-lane/fast-lane.ts: probes come often). */
  @FastLane()
  @Public()
  @Get('live')
  @Header('Cache-Control', 'no-store')
  live() {
    return this.health.liveness();
  }

  /** Readiness: a load balancer stops routing to an instance whose database does not answer (503). */
  @Public()
  @Get('ready')
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) response: Response): Promise<Readiness> {
    const readiness = await this.health.readiness();
    if (readiness.status !== 'ok') response.status(HttpStatus.SERVICE_UNAVAILABLE).setHeader('Retry-After', '5');
    return readiness;
  }
}
