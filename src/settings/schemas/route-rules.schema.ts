import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { REDIRECT_STATUSES, type RedirectStatus } from '../../../lib/api/route-rules.js';

@Schema({ _id: false, versionKey: false })
export class StoredRouteRule {
  @Prop({ required: true })
  source!: string;

  @Prop({ required: true })
  target!: string;

  @Prop({ type: Number, required: true, enum: REDIRECT_STATUSES })
  status!: RedirectStatus;
}

/**
 * All rules live in one document, so saving the list is a single atomic write: a failure half-way
 * can never leave half of an edit applied (FerretDB has no transactions).
 */
@Schema({ collection: 'route_rules', versionKey: false })
export class RouteRuleSet {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: [SchemaFactory.createForClass(StoredRouteRule)], default: [] })
  rules!: StoredRouteRule[];

  @Prop({ required: true })
  updatedAt!: Date;
}

export const RouteRuleSetSchema = SchemaFactory.createForClass(RouteRuleSet);
