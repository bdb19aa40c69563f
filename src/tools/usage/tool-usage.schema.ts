import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Runs of one tool action on one UTC day. Incremented with an atomic `$inc` upsert; the unique index
 * keeps one document per (day, tool, action) so concurrent first runs of a day converge.
 */
@Schema({ collection: 'tool_usage_daily', versionKey: false })
export class ToolUsageDay {
  @Prop({ type: String, required: true })
  day!: string;

  @Prop({ type: String, required: true })
  tool!: string;

  @Prop({ type: String, required: true })
  action!: string;

  @Prop({ type: Number, required: true, default: 0 })
  runs!: number;
}

export const ToolUsageDaySchema = SchemaFactory.createForClass(ToolUsageDay);
ToolUsageDaySchema.index({ day: 1, tool: 1, action: 1 }, { unique: true });
