import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CampaignsService } from './campaigns.service.js';

const TICK_MS = 1000;
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events for one campaign: the campaign (counts, rate, ETA) whenever it changed, read
 * once a second by `_id` (the cheapest lookup there is), a comment line as heartbeat, `done` once
 * nothing moves any more. The client's disconnect stops the timer, so no work outlives the page.
 *
 * `no-transform` keeps the compression middleware from buffering the stream (it skips such
 * responses), and the headers go out at once, before the request deadline could answer 503.
 */
@Injectable()
export class CampaignProgressStream {
  constructor(private readonly campaigns: CampaignsService) {}

  async stream(id: string, request: Request, response: Response): Promise<void> {
    let last = JSON.stringify(await this.campaigns.get(id));
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'private, no-cache, no-transform');
    response.setHeader('X-Accel-Buffering', 'no');
    response.flushHeaders();
    response.write(`retry: 3000\nevent: progress\ndata: ${last}\n\n`);

    let closed = false;
    let busy = false;
    let quietSince = Date.now();
    const stop = () => {
      closed = true;
      clearInterval(timer);
    };
    const timer = setInterval(() => {
      if (closed || busy) return;
      busy = true;
      this.campaigns
        .get(id)
        .then((campaign) => {
          if (closed) return;
          const next = JSON.stringify(campaign);
          if (next !== last) {
            last = next;
            quietSince = Date.now();
            response.write(`event: progress\ndata: ${next}\n\n`);
          } else if (Date.now() - quietSince >= HEARTBEAT_MS) {
            quietSince = Date.now();
            response.write(': heartbeat\n\n');
          }
          if (campaign.state === 'sent' || campaign.state === 'cancelled' || campaign.state === 'draft') {
            response.write('event: done\ndata: {}\n\n');
            stop();
            response.end();
          }
        })
        .catch(() => {
          // The database is away or the campaign was deleted: end the stream; the page falls back to polling.
          stop();
          response.end();
        })
        .finally(() => {
          busy = false;
        });
    }, TICK_MS);
    request.on('close', stop);
  }
}
