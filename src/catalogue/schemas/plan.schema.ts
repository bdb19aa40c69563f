import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { CURRENCIES, type Currency, PLAN_INTERVALS, type PlanInterval } from '../../../lib/api/catalogue.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../lib/product.js';

/** A plan (collection `plans`), `_id` its slug. Never deleted once an order names it: deactivated. */
@Schema({ collection: 'plans', versionKey: false })
export class Plan {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  name!: string;

  @Prop({ type: String, default: '' })
  description!: string;

  @Prop({ type: [String], default: [] })
  features!: string[];

  @Prop({ type: [String], enum: PRODUCT_SLUGS, required: true })
  products!: ProductSlug[];

  @Prop({ type: Number, required: true })
  amountMinor!: number;

  @Prop({ type: String, enum: CURRENCIES, required: true })
  currency!: Currency;

  @Prop({ type: String, enum: PLAN_INTERVALS, required: true })
  interval!: PlanInterval;

  @Prop({ type: Number, required: true })
  seats!: number;

  @Prop({ type: Number, default: 0 })
  trialDays!: number;

  @Prop({ type: String, default: null })
  stripePriceId!: string | null;

  @Prop({ type: Boolean, default: true })
  active!: boolean;

  @Prop({ type: Boolean, default: false })
  featured!: boolean;

  @Prop({ type: Number, default: 0 })
  sortOrder!: number;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const PlanSchema = SchemaFactory.createForClass(Plan);
PlanSchema.index({ active: 1, sortOrder: 1 });

/** Catalogue-wide settings (collection `catalogue_settings`, one document `_id: 'products'`). */
@Schema({ collection: 'catalogue_settings', versionKey: false })
export class CatalogueSettings {
  @Prop({ type: String, required: true })
  _id!: string;

  /** Product slugs whose downloads need no licence (default: none). */
  @Prop({ type: [String], default: [] })
  downloadsFree!: ProductSlug[];
}

export const CatalogueSettingsSchema = SchemaFactory.createForClass(CatalogueSettings);
