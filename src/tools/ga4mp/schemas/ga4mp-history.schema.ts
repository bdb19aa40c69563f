import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { type HydratedDocument, Schema as MongooseSchema } from 'mongoose';
import { GA4MP_REGIONS, type Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import type { Ga4mpStream } from '../../../../lib/tools/ga4mp/types.js';

/**
 * One payload a user sent through the workbench. The api_secret is never stored (the query keeps
 * `REDACTED`); the body is kept as JSON text because GA4 parameter names are user input and may hold
 * characters MongoDB field names do not allow. Capped per user (GA4MP_HISTORY_LIMIT, newest kept).
 */
@Schema({ collection: 'ga4mp_history', versionKey: false })
export class Ga4mpHistory {
  @Prop({ type: String, required: true })
  userId!: string;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: String, required: true, enum: ['web', 'app'] satisfies Ga4mpStream[] })
  stream!: Ga4mpStream;

  @Prop({ type: MongooseSchema.Types.Mixed, required: true })
  query!: Record<string, string>;

  @Prop({ type: String, required: true })
  bodyJson!: string;

  @Prop({ type: [String], default: [] })
  eventNames!: string[];

  @Prop({ type: Boolean, required: true })
  debug!: boolean;

  @Prop({ type: String, required: true, enum: GA4MP_REGIONS })
  region!: Ga4mpRegion;

  @Prop({ type: Number, default: null })
  status!: number | null;

  @Prop({ type: Boolean, required: true })
  ok!: boolean;

  @Prop({ type: Number, required: true })
  durationMs!: number;

  @Prop({ type: String, default: '[]' })
  localMessagesJson!: string;

  /** GA4's answer as JSON text (null when it was empty or GA4 was not reached). */
  @Prop({ type: String, default: null })
  responseJson!: string | null;

  @Prop({ type: String, default: null })
  error!: string | null;
}

export type Ga4mpHistoryDocument = HydratedDocument<Ga4mpHistory>;
export const Ga4mpHistorySchema = SchemaFactory.createForClass(Ga4mpHistory);
Ga4mpHistorySchema.index({ userId: 1, createdAt: -1 });
