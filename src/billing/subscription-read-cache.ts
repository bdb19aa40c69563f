import { Injectable } from '@nestjs/common';
import { ReadCache } from '../common/read-cache.js';
import type { SubscriptionMirror } from './schemas/billing.schemas.js';

/** How long another instance may show a subscription as it was before a webhook changed it. */
export const SUBSCRIPTION_CACHE_MS = 5_000;

/**
 * A person's latest subscription (or that they have none) for what only shows it: the signed-in
 * pages' glance and `GET /api/billing/subscription`, read on every dashboard page. Forgotten by
 * every write to the mirror (a Stripe event applied, an account deleted), so this instance shows a
 * change at once; another instance after at most SUBSCRIPTION_CACHE_MS. Decisions (may this person
 * start a checkout, which subscription does a cancel act on) read the database.
 */
@Injectable()
export class SubscriptionReadCache {
  private readonly cache = new ReadCache<{ latest: SubscriptionMirror | null }>(SUBSCRIPTION_CACHE_MS, 10_000);

  async latest(userId: string, load: () => Promise<SubscriptionMirror | null>): Promise<SubscriptionMirror | null> {
    const cached = await this.cache.get(userId, async () => ({ latest: await load() }));
    return cached?.latest ?? null;
  }

  forget(...userIds: Array<string | null | undefined>): void {
    for (const userId of userIds) if (userId) this.cache.forget(userId);
  }
}
