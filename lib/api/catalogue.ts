/**
 * The product catalogue (src/catalogue): the two companion products and the plans that sell them.
 * Shared by the server's DTOs and mappers and the client (pricing on the home and tool pages, the
 * catalogue section of /admin/settings). Money is in integer minor units (`amountMinor: 2900` = €29).
 */
import { productsText } from '../billing/plan-copy.js';
import { type ProductSlug, PRODUCT_SLUGS } from '../product.js';

export const CURRENCIES = ['eur', 'usd', 'gbp'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const PLAN_INTERVALS = ['month', 'year', 'lifetime'] as const;
/** `lifetime`: a one-off purchase (Stripe Checkout in payment mode), a licence without expiry. */
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** Plan ids are slugs: lower-case letters, digits and single dashes, 3 to 40 characters. */
export const PLAN_ID_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,39}$/;

export const PLAN_LIMITS = {
  nameMax: 60,
  descriptionMax: 300,
  featuresMax: 12,
  featureMax: 120,
  amountMinorMax: 10_000_000,
  seatsMax: 10_000,
  trialDaysMax: 90,
} as const;

export interface CatalogueProduct {
  slug: ProductSlug;
  name: string;
  kind: string;
  /** Licence keys of this product start with it (`HSA-…`, `HSB-…`). */
  licencePrefix: string;
  /** Downloads of builds need no licence. */
  downloadsFree: boolean;
}

export interface CataloguePlan {
  id: string;
  name: string;
  description: string;
  features: string[];
  products: ProductSlug[];
  amountMinor: number;
  currency: Currency;
  interval: PlanInterval;
  /** Seats per unit; a subscription's seats are `seats × quantity`. */
  seats: number;
  trialDays: number;
  featured: boolean;
  sortOrder: number;
}

/** `GET /api/catalogue` (public): the active plans, in display order. */
export interface CatalogueResponse {
  products: CatalogueProduct[];
  plans: CataloguePlan[];
}

/** What admins see: every plan, inactive ones too, with the Stripe price they sell through. */
export interface AdminPlan extends CataloguePlan {
  active: boolean;
  /** Stripe price id (`price_…`); null: Checkout prices it inline from `amountMinor`/`currency`. */
  stripePriceId: string | null;
  updatedAt: string;
}

export interface AdminPlanList {
  plans: AdminPlan[];
}

/** `POST /api/admin/catalogue/plans`. */
export interface CreatePlanRequest {
  id: string;
  name: string;
  description?: string;
  features?: string[];
  products: ProductSlug[];
  amountMinor: number;
  currency: Currency;
  interval: PlanInterval;
  seats: number;
  trialDays?: number;
  stripePriceId?: string | null;
  featured?: boolean;
  sortOrder?: number;
}

/** `PATCH /api/admin/catalogue/plans/:id`: any field but the id (a plan's id is referenced by orders). */
export type UpdatePlanRequest = Partial<Omit<CreatePlanRequest, 'id'>> & { active?: boolean };

/** `GET /api/admin/catalogue/products` (never cached: the public catalogue is, for a minute). */
export interface AdminProductList {
  products: CatalogueProduct[];
}

/** `PUT /api/admin/catalogue/products/:slug`: the product settings an administrator changes. */
export interface UpdateProductRequest {
  /** On: anybody may download the product's builds, signed in or not, licence or not. */
  downloadsFree: boolean;
}

export const CATALOGUE_AUDIT_ACTIONS = [
  'catalogue.plan.create',
  'catalogue.plan.update',
  'catalogue.plan.deactivate',
  'catalogue.product.downloads',
] as const;

type SeedPlan = Omit<AdminPlan, 'updatedAt'>;
const BOTH = [...PRODUCT_SLUGS];

/**
 * Inserted on first start (by `_id`, so two instances starting together insert each plan once).
 * The products a plan covers are not a feature line: the cards say them from `products`
 * (lib/billing/plan-copy.ts), so they stay true when an administrator changes them.
 */
export const DEFAULT_PLANS: readonly SeedPlan[] = [
  plan('solo-monthly', 'Solo', 900, 'month', 1, 10, ['E-mail support']),
  plan('solo-yearly', 'Solo', 9000, 'year', 1, 20, ['E-mail support', 'Two months free']),
  plan('team-monthly', 'Team', 2900, 'month', 5, 30, ['Priority support'], true),
  plan('team-yearly', 'Team', 29000, 'year', 5, 40, ['Priority support', 'Two months free']),
  plan('agency-monthly', 'Agency', 7900, 'month', 20, 50, ['Onboarding call']),
  plan('solo-lifetime', 'Solo lifetime', 19900, 'lifetime', 1, 60, ['Pay once, use forever']),
];

function plan(
  id: string,
  name: string,
  amountMinor: number,
  interval: PlanInterval,
  seats: number,
  sortOrder: number,
  features: string[],
  featured = false,
): SeedPlan {
  const per = interval === 'lifetime' ? 'one-off' : `per ${interval}`;
  return {
    id,
    name,
    description: `${name}, ${seats} seat${seats === 1 ? '' : 's'}, ${per}, ${productsText(BOTH)}.`,
    features,
    products: BOTH,
    amountMinor,
    currency: 'eur',
    interval,
    seats,
    trialDays: 0,
    stripePriceId: null,
    active: true,
    featured,
    sortOrder,
  };
}
