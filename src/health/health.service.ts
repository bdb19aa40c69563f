import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';

const PING_TIMEOUT_MS = 2000;

export type Readiness =
  { status: 'ok'; database: { status: 'up'; latencyMs: number } } | { status: 'unavailable'; database: { status: 'down' } };

@Injectable()
export class HealthService {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  /** Liveness never touches the database, so a database outage does not get the process restarted. */
  liveness() {
    return { status: 'ok' as const, uptimeSeconds: Math.round(process.uptime()) };
  }

  /** Ready when the database answers a ping within two seconds. */
  async readiness(): Promise<Readiness> {
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
      return { status: 'unavailable', database: { status: 'down' } };
    }
  }
}
