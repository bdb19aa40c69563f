import { Injectable } from '@nestjs/common';
import { ReadCache } from '../common/read-cache.js';
import type { Order, SubscriptionMirror } from './schemas/billing.schemas.js';

/** How long another instance may show a subscription as it was before a webhook changed it. */
export const SUBSCRIPTION_CACHE_MS = 5_000;

/** What a person holds: their subscriptions (newest first) and their paid orders that are licences of their own. */
export interface Holdings {
  subscriptions: SubscriptionMirror[];
  purchases: Order[];
}

/**
 * A person's holdings for what only shows them: the signed-in pages' glance and `GET
 * /api/billing/subscription`, read on every dashboard page. Forgotten by every write to the mirror
 * and to a person's orders (a Stripe event applied, a change made here, a manual order, an account
 * deleted), so this instance shows a change at once; another instance after at most
 * SUBSCRIPTION_CACHE_MS. Decisions (may this person start a checkout, which subscription does a
 * cancel act on) read the database.
 */
@Injectable()
export class SubscriptionReadCache {
  private readonly cache = new ReadCache<Holdings>(SUBSCRIPTION_CACHE_MS, 10_000);

  async holdings(userId: string, load: () => Promise<Holdings>): Promise<Holdings> {
    return (await this.cache.get(userId, load)) ?? { subscriptions: [], purchases: [] };
  }

  forget(...userIds: Array<string | null | undefined>): void {
    for (const userId of userIds) if (userId) this.cache.forget(userId);
  }
}
