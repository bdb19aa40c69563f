import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Where a key's licence is: `_id` is the key's lookup hash (HMAC-SHA256 of the normalised key), so
 * finding a licence by its key is two reads by `_id`. The embedded database (FerretDB on SQLite)
 * answers `_id` equality inside SQLite, which stops at the match without decoding documents (still a
 * scan: its `_id` index is not used), and any other filter, the `keyLookup` index of `licences`
 * included, by decoding every document in FerretDB: measured 17 ms by `_id` against 180-445 ms by an
 * indexed field in a collection of 5 000 documents of 2 kB. These documents are small, which keeps
 * the `_id` scan short. The unique `_id` also keeps two licences from sharing a key.
 */
@Schema({ collection: 'licence_keys', versionKey: false })
export class LicenceKey {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, index: true })
  licenceId!: string;
}

export const LicenceKeySchema = SchemaFactory.createForClass(LicenceKey);
