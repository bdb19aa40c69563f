import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Response } from 'express';
import type { Connection } from 'mongoose';
import { Public } from '../auth/decorators/public.decorator.js';

const PING_TIMEOUT_MS = 2000;

@Controller('health')
export class HealthController {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** Liveness: the process answers. Never touches the database, so a database outage does not restart us. */
  @Public()
  @Get('live')
  live(@Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  }

  /** Readiness: the database answers a ping within two seconds; a load balancer stops routing to us otherwise. */
  @Public()
  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'no-store');
    const started = Date.now();
    try {
      const db = this.connection.db;
      if (!db || this.connection.readyState !== 1) throw new Error('not connected');
      await Promise.race([
        db.admin().ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS).unref()),
      ]);
      return { status: 'ok', database: { status: 'up', latencyMs: Date.now() - started } };
    } catch {
      response.status(HttpStatus.SERVICE_UNAVAILABLE).setHeader('Retry-After', '5');
      return { status: 'unavailable', database: { status: 'down' } };
    }
  }
}
