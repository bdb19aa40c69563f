import { KEY_PREFIXES } from '../../lib/licences/key.js';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import {
  type AdminPlan,
  type AdminPlanList,
  type AdminProductList,
  type CataloguePlan,
  type CatalogueProduct,
  type CatalogueResponse,
  type CreatePlanRequest,
  DEFAULT_PLANS,
  type UpdatePlanRequest,
} from '../../lib/api/catalogue.js';
import { COMPANION_PRODUCTS, type ProductSlug } from '../../lib/product.js';
import { AuditService, type AuditTargetType } from '../audit/audit.service.js';
import { isDuplicateKey } from '../database/upsert.js';
import { CatalogueException } from './catalogue.exception.js';
import { CatalogueSettings, Plan } from './schemas/plan.schema.js';
import { publicContentChanged } from '../common/public-content.js';
import { ReadCache } from '../common/read-cache.js';

type PlanRecord = Plan;

export function toCataloguePlan(plan: PlanRecord): CataloguePlan {
  return {
    id: plan._id,
    name: plan.name,
    description: plan.description,
    features: [...plan.features],
    products: [...plan.products],
    amountMinor: plan.amountMinor,
    currency: plan.currency,
    interval: plan.interval,
    seats: plan.seats,
    trialDays: plan.trialDays,
    featured: plan.featured,
    sortOrder: plan.sortOrder,
  };
}

export function toAdminPlan(plan: PlanRecord): AdminPlan {
  return { ...toCataloguePlan(plan), active: plan.active, stripePriceId: plan.stripePriceId, updatedAt: plan.updatedAt.toISOString() };
}

const PRODUCTS_DOC = 'products';

function toCatalogueProducts(free: ReadonlySet<string>): CatalogueProduct[] {
  return Object.values(COMPANION_PRODUCTS).map((product) => ({
    slug: product.slug,
    name: product.name,
    kind: product.kind,
    licencePrefix: KEY_PREFIXES[product.slug],
    downloadsFree: free.has(product.slug),
  }));
}

/** The fields an audit entry compares (everything an admin can change). */
/**
 * How long the public catalogue is kept in memory. A change made on this instance is seen at once;
 * other instances see it within this time (like the site settings).
 */
export const CATALOGUE_CACHE_MS = 5_000;

const auditable = (plan: PlanRecord | null) => (plan ? { ...toAdminPlan(plan), updatedAt: undefined } : null);

/** Products (constants) and plans (collection `plans`); other modules read plans through {@link get}. */
@Injectable()
export class CatalogueService implements OnApplicationBootstrap {
  private readonly logger = new Logger(CatalogueService.name);
  /** The public catalogue, read by every page that shows prices; forgotten on every change made here. */
  private readonly cached = new ReadCache<CatalogueResponse>(CATALOGUE_CACHE_MS, 1);
  private readonly plansById = new ReadCache<PlanRecord>(CATALOGUE_CACHE_MS, 1_000);

  constructor(
    @InjectModel(Plan.name) private readonly plans: Model<Plan>,
    @InjectModel(CatalogueSettings.name) private readonly settings: Model<CatalogueSettings>,
    private readonly audit: AuditService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.seed();
  }

  /**
   * The default plans, on first start only (an empty collection): each is inserted by `_id`, so two
   * instances starting at once insert each plan once (the loser's duplicate key is ignored), and a
   * plan an admin deactivated or edited later is never brought back.
   */
  async seed(): Promise<number> {
    if ((await this.plans.estimatedDocumentCount().exec()) > 0) return 0;
    let inserted = 0;
    for (const { id, ...plan } of DEFAULT_PLANS) {
      try {
        await this.plans.create({ _id: id, ...plan, updatedAt: new Date() });
        inserted += 1;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    if (inserted) {
      this.changed();
      // Said once, on the first start: prices nobody chose are now on sale until an admin changes them.
      this.logger.log(
        `Catalogue: ${inserted} default plans created (${DEFAULT_PLANS.map((plan) => plan.id).join(', ')}). ` +
          'Change their prices and seats, or stop selling them, in /admin/settings#catalogue; they are never created again.',
      );
    }
    return inserted;
  }

  /** Products and active plans: from memory for CATALOGUE_CACHE_MS, read again at once after a change made here. */
  async catalogue(): Promise<CatalogueResponse> {
    const catalogue = await this.cached.get('catalogue', async () => {
      const [plans, settings] = await Promise.all([
        this.plans.find({ active: true }).sort({ sortOrder: 1, _id: 1 }).lean<PlanRecord[]>().exec(),
        this.freeDownloads(),
      ]);
      return { products: toCatalogueProducts(settings), plans: plans.map(toCataloguePlan) };
    });
    return catalogue!;
  }

  /** After any write: this instance's cached catalogue and plans, and the pages showing prices, are dropped. */
  private changed(): void {
    this.cached.forget('catalogue');
    this.plansById.clear();
    publicContentChanged();
  }

  /** The products whose builds anybody may download (the `products` settings document). */
  private async freeDownloads(): Promise<Set<string>> {
    const settings = await this.settings.findById(PRODUCTS_DOC).lean<CatalogueSettings>().exec();
    return new Set(settings?.downloadsFree ?? []);
  }

  /** Read on every download, never cached here: an administrator's switch applies at once, on every instance. */
  async downloadsFree(product: ProductSlug): Promise<boolean> {
    return (await this.freeDownloads()).has(product);
  }

  async listProducts(): Promise<AdminProductList> {
    return { products: toCatalogueProducts(await this.freeDownloads()) };
  }

  /**
   * Turns a product's free downloads on or off: `$addToSet` / `$pull` on the one settings document,
   * so two administrators switching the two products at once both win. Switching to what is already
   * stored writes nothing and records nothing.
   */
  async setDownloadsFree(actor: SessionUser, slug: ProductSlug, downloadsFree: boolean): Promise<CatalogueProduct> {
    const before = await this.downloadsFree(slug);
    if (before !== downloadsFree) {
      await this.settings
        .updateOne({ _id: PRODUCTS_DOC }, downloadsFree ? { $addToSet: { downloadsFree: slug } } : { $pull: { downloadsFree: slug } }, {
          upsert: true,
        })
        .exec();
      const name = toCatalogueProducts(new Set()).find((product) => product.slug === slug)!.name;
      await this.writeAudit(
        actor,
        'catalogue.product.downloads',
        { type: 'product', id: slug, label: name },
        { downloadsFree: before },
        { downloadsFree },
      );
    }
    return toCatalogueProducts(await this.freeDownloads()).find((product) => product.slug === slug)!;
  }

  async list(): Promise<AdminPlanList> {
    const plans = await this.plans.find({}).sort({ sortOrder: 1, _id: 1 }).lean<PlanRecord[]>().exec();
    return { plans: plans.map(toAdminPlan) };
  }

  /** A plan by id, active or not (orders keep naming deactivated plans). */
  async get(id: string): Promise<PlanRecord> {
    const plan = await this.plans.findById(id).lean<PlanRecord>().exec();
    if (!plan) throw CatalogueException.notFound();
    return plan;
  }

  /**
   * A plan by id as it was at most CATALOGUE_CACHE_MS ago (at once after a change made here), like
   * the public catalogue: for the webhooks' entitlements, renewals and mails, which read the plan of
   * every event (two reads per event were a tenth of the embedded database's time in `npm run
   * bench`'s webhook run). A sale reads the plan fresh (getForSale). Callers must not change it.
   */
  async recent(id: string): Promise<PlanRecord> {
    const plan = await this.plansById.get(id, () => this.plans.findById(id).lean<PlanRecord>().exec());
    if (!plan) throw CatalogueException.notFound();
    return plan;
  }

  /** A plan that can be bought now. */
  async getForSale(id: string): Promise<PlanRecord> {
    const plan = await this.get(id);
    if (!plan.active) throw CatalogueException.inactive();
    return plan;
  }

  async create(actor: SessionUser, input: CreatePlanRequest): Promise<AdminPlan> {
    const { id, ...fields } = input;
    let created: PlanRecord;
    try {
      created = (await this.plans.create({ _id: id, ...fields, active: true, updatedAt: new Date() })).toObject() as PlanRecord;
    } catch (error) {
      if (isDuplicateKey(error)) throw CatalogueException.exists();
      throw error;
    }
    await this.record(actor, 'catalogue.plan.create', created, null, auditable(created));
    return toAdminPlan(created);
  }

  async update(actor: SessionUser, id: string, changes: UpdatePlanRequest): Promise<AdminPlan> {
    const before = await this.get(id);
    // The DTO instance lists absent fields as undefined: only what was sent is a change.
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    // Nothing to change (an empty body): no write, no audit entry.
    if (Object.keys(set).length === 0) return toAdminPlan(before);
    const updated = await this.plans
      .findByIdAndUpdate(id, { $set: { ...set, updatedAt: new Date() } }, { returnDocument: 'after' })
      .lean<PlanRecord>()
      .exec();
    if (!updated) throw CatalogueException.notFound();
    await this.record(actor, 'catalogue.plan.update', updated, auditable(before), auditable(updated));
    return toAdminPlan(updated);
  }

  /** Plans are never deleted: orders name them. Deactivated, a plan is no longer sold or listed. */
  async deactivate(actor: SessionUser, id: string): Promise<AdminPlan> {
    const before = await this.get(id);
    if (!before.active) return toAdminPlan(before);
    const updated = await this.plans
      .findByIdAndUpdate(id, { $set: { active: false, updatedAt: new Date() } }, { returnDocument: 'after' })
      .lean<PlanRecord>()
      .exec();
    if (!updated) throw CatalogueException.notFound();
    await this.record(actor, 'catalogue.plan.deactivate', updated, { active: true }, { active: false });
    return toAdminPlan(updated);
  }

  private async record(
    actor: SessionUser,
    action: string,
    plan: PlanRecord,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ): Promise<void> {
    await this.writeAudit(actor, action, { type: 'plan', id: plan._id, label: plan.name }, before, after);
  }

  private async writeAudit(
    actor: SessionUser,
    action: string,
    target: { type: AuditTargetType; id: string; label: string },
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ): Promise<void> {
    // Every catalogue change is audited through here, after it is written.
    this.changed();
    try {
      await this.audit.record({ actor: { id: actor.id, email: actor.email }, action, target, before, after });
    } catch (error) {
      this.logger.error(
        `Audit entry not written: ${action} on ${target.type} ${target.id} by ${actor.id} ${JSON.stringify({ before, after })}`,
      );
      throw error;
    }
  }
}
