import { Inject, Injectable, Logger, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import Stripe from 'stripe';
import type { SessionUser } from '../../lib/api/auth.js';
import type { StripeCatalogueView, StripePlanView } from '../../lib/api/billing.js';
import { AuditService } from '../audit/audit.service.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import type { Plan } from '../catalogue/schemas/plan.schema.js';
import { isDuplicateKey } from '../database/upsert.js';
import { BillingException } from './billing.exception.js';
import { StripePlanPrice } from './schemas/billing.schemas.js';
import { STRIPE_CLIENT } from './stripe-client.js';
import { priceMatches, type StripeCatalogueEntry, stripeCatalogueEntry, type StripePriceLike } from './stripe-catalogue.js';
import { BILLING_POLL_MS } from './billing-poll.js';

/**
 * Keeps a Stripe Product and Price per plan in step with the catalogue, so that every plan is sold
 * through a real Price: Checkout uses it, and a subscription can be switched to any recurring plan
 * (Stripe moves a subscription only between Prices). Idempotent at every step:
 * - the Product has an id of our own (`hitscope_plan_<plan>`): made once, updated when the plan's
 *   name or products change;
 * - the Price is found by its lookup key (`hitscope_<plan>`) when it already matches, otherwise made
 *   with a deterministic idempotency key (`catalogue:price:<plan>:<hash of amount, currency,
 *   interval>`), taking the lookup key over; the previous Price is archived (subscriptions on it
 *   keep it; nobody new buys it);
 * - what was made is kept in `billing_stripe_prices` with the hashes it was made from, so a plan in
 *   step costs no Stripe call at all.
 * An administrator's own Price on a plan (`stripePriceId`) wins: such a plan is left alone.
 */
@Injectable()
export class StripeCatalogueService implements OnApplicationBootstrap {
  private readonly logger = new Logger('StripeCatalogue');
  /** One sync per plan at a time on this instance (two checkouts of a new plan make one Price). */
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    @InjectModel(StripePlanPrice.name) private readonly synced: Model<StripePlanPrice>,
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    private readonly catalogue: CatalogueService,
    private readonly audit: AuditService,
    @Optional() @Inject(BILLING_POLL_MS) private readonly pollMs?: number,
  ) {}

  /**
   * In the background at start-up: plans edited while the app was down are in step before the first
   * checkout. A Stripe outage only delays it (the next checkout of each plan syncs it).
   */
  onApplicationBootstrap(): void {
    if (!this.stripe || this.pollMs === 0) return;
    void this.syncAll().catch((error: Error) => this.logger.warn(`Catalogue sync with Stripe failed: ${error.message}`));
  }

  /** The Price a plan is sold with: the administrator's, or the synced one (synced now when needed). */
  async priceFor(plan: Plan): Promise<string> {
    if (plan.stripePriceId) return plan.stripePriceId;
    const entry = stripeCatalogueEntry(plan);
    const stored = await this.synced.findById(plan._id).lean<StripePlanPrice>().exec();
    if (stored && stored.priceHash === entry.priceHash && stored.productHash === entry.productHash) return stored.priceId;
    const running = this.inFlight.get(plan._id);
    if (running) return running;
    const sync = this.sync(plan._id, entry, stored).finally(() => this.inFlight.delete(plan._id));
    this.inFlight.set(plan._id, sync);
    return sync;
  }

  /** Which plan a Stripe Price sells (an administrator's Price, or one the app made, current or not). */
  async planOfPrice(priceId: string | null): Promise<string | null> {
    if (!priceId) return null;
    const { plans } = await this.catalogue.list();
    const own = plans.find((plan) => plan.stripePriceId === priceId);
    if (own) return own.id;
    const synced = await this.synced.findOne({ priceId }, { _id: 1 }).lean<Pick<StripePlanPrice, '_id'>>().exec();
    return synced?._id ?? null;
  }

  /** The Product of a Price the app made (null for any other Price). */
  async syncedProductOf(priceId: string): Promise<string | null> {
    const row = await this.synced.findOne({ priceId }, { productId: 1 }).lean<Pick<StripePlanPrice, 'productId'>>().exec();
    return row?.productId ?? null;
  }

  /** Every active plan in step; answers what admins see. */
  async syncAll(): Promise<StripeCatalogueView> {
    const { plans } = await this.catalogue.list();
    for (const plan of plans) {
      if (!plan.active || plan.stripePriceId) continue;
      await this.priceFor(await this.catalogue.get(plan.id));
    }
    return this.view();
  }

  /** An administrator's "Sync with Stripe": audited, since it makes objects in Stripe. */
  async syncNow(actor: SessionUser): Promise<StripeCatalogueView> {
    if (!this.stripe) throw BillingException.notConfigured();
    const before = await this.view();
    let view: StripeCatalogueView;
    try {
      view = await this.syncAll();
    } catch (error) {
      this.logger.warn(`Catalogue sync with Stripe failed: ${(error as Error).message}`);
      throw BillingException.provider();
    }
    const changed = view.plans.filter((plan) => before.plans.find((old) => old.planId === plan.planId)?.priceId !== plan.priceId);
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: 'billing.catalogue.sync',
      target: { type: 'plan', id: 'stripe-catalogue', label: 'Stripe products and prices' },
      before: {
        prices: Object.fromEntries(
          changed.map((plan) => [plan.planId, before.plans.find((old) => old.planId === plan.planId)?.priceId ?? null]),
        ),
      },
      after: { prices: Object.fromEntries(changed.map((plan) => [plan.planId, plan.priceId])) },
    });
    return view;
  }

  /** How each plan is sold through Stripe (for /admin/settings); no Stripe call. */
  async view(): Promise<StripeCatalogueView> {
    if (!this.stripe) return { configured: false, plans: [] };
    const [{ plans }, rows] = await Promise.all([this.catalogue.list(), this.synced.find({}).lean<StripePlanPrice[]>().exec()]);
    return {
      configured: true,
      plans: plans.map((plan): StripePlanView => {
        if (plan.stripePriceId) return { planId: plan.id, mode: 'price', priceId: plan.stripePriceId, productId: null, syncedAt: null };
        const row = rows.find((candidate) => candidate._id === plan.id);
        const entry = stripeCatalogueEntry({ ...plan, _id: plan.id });
        const inStep = row && row.priceHash === entry.priceHash && row.productHash === entry.productHash;
        return {
          planId: plan.id,
          mode: inStep ? 'synced' : 'pending',
          priceId: row?.priceId ?? null,
          productId: row?.productId ?? null,
          syncedAt: row?.syncedAt.toISOString() ?? null,
        };
      }),
    };
  }

  private get client(): Stripe {
    if (!this.stripe) throw BillingException.notConfigured();
    return this.stripe;
  }

  private async sync(planId: string, entry: StripeCatalogueEntry, stored: StripePlanPrice | null): Promise<string> {
    const stripe = this.client;
    const productId = await this.syncProduct(entry, stored);
    let priceId = stored?.priceHash === entry.priceHash ? stored.priceId : null;
    if (!priceId) {
      const listed = await stripe.prices.list({ lookup_keys: [entry.price.lookup_key], active: true, limit: 10 });
      priceId = listed.data.find((price) => priceMatches(price as unknown as StripePriceLike, entry))?.id ?? null;
      if (!priceId) {
        const price = await stripe.prices.create(
          { ...entry.price, product: productId, transfer_lookup_key: true },
          { idempotencyKey: `catalogue:price:${planId}:${entry.priceHash}` },
        );
        priceId = price.id;
        this.logger.log(`Plan ${planId}: Stripe price ${priceId} (${entry.price.unit_amount} ${entry.price.currency})`);
      }
    }
    const row = { productId, productHash: entry.productHash, priceId, priceHash: entry.priceHash, syncedAt: new Date() };
    try {
      await this.synced.updateOne({ _id: planId }, { $set: row }, { upsert: true }).exec();
    } catch (error) {
      // Another instance inserted it at the same moment: it made the same objects (same keys).
      if (!isDuplicateKey(error)) throw error;
      await this.synced.updateOne({ _id: planId }, { $set: row }).exec();
    }
    if (stored && stored.priceId !== priceId) {
      // Archived, not deleted: subscriptions on the old Price go on with it until they change plan.
      await stripe.prices
        .update(stored.priceId, { active: false })
        .catch((error: Error) => this.logger.warn(`Archiving Stripe price ${stored.priceId} failed: ${error.message}`));
    }
    return priceId;
  }

  /** The plan's Product under its own id: made once, updated when its words change. */
  private async syncProduct(entry: StripeCatalogueEntry, stored: StripePlanPrice | null): Promise<string> {
    const stripe = this.client;
    const { id, ...fields } = entry.product;
    if (stored) {
      if (stored.productHash !== entry.productHash) await stripe.products.update(stored.productId, { ...fields, active: true });
      return stored.productId;
    }
    try {
      const product = await stripe.products.create(entry.product, { idempotencyKey: `catalogue:product:${id}:${entry.productHash}` });
      return product.id;
    } catch (error) {
      // Made before (by another instance, or before this database was restored): bring it up to date.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.code !== 'resource_already_exists') throw error;
      await stripe.products.update(id, { ...fields, active: true });
      return id;
    }
  }
}
