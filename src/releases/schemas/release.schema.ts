import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { Types } from 'mongoose';
import type { ReleaseArch, ReleaseChannel, ReleaseFormat, ReleasePlatform, ReleaseStatus } from '../../../lib/api/releases.js';

@Schema({ _id: false, versionKey: false })
export class ReleaseFile {
  /** The file storage's id (area `releases`). */
  @Prop({ type: String, required: true })
  storageId!: string;

  @Prop({ type: String, required: true })
  filename!: string;

  @Prop({ type: Number, required: true })
  size!: number;

  /** Lower-case hex; also the download's ETag. */
  @Prop({ type: String, required: true })
  sha256!: string;

  @Prop({ type: String, required: true })
  contentType!: string;
}

@Schema({ _id: false, versionKey: false })
export class ReleaseSignatureDoc {
  @Prop({ type: String, required: true })
  kid!: string;

  /** Ed25519 over the 32-byte SHA-256 digest, base64url. */
  @Prop({ type: String, required: true })
  value!: string;
}

/**
 * One build of one product for one platform, architecture and channel (design: docs/releases.md
 * "Releases"). Written once when its upload has been stored completely; afterwards only `status`,
 * `yankedAt` and the `downloads` counter change.
 */
@Schema({ collection: 'releases', versionKey: false })
export class Release {
  _id!: Types.ObjectId;

  @Prop({ type: String, required: true })
  product!: string;

  @Prop({ type: String, required: true })
  platform!: ReleasePlatform;

  @Prop({ type: String, required: true })
  arch!: ReleaseArch;

  @Prop({ type: String, required: true })
  channel!: ReleaseChannel;

  @Prop({ type: String, required: true })
  version!: string;

  /** The package format; null for a file of another kind. Documents stored before formats lack it until the start-up backfill (ReleasesService). */
  @Prop({ type: String, default: null })
  format!: ReleaseFormat | null;

  @Prop({ type: String, default: '' })
  notes!: string;

  @Prop({ type: SchemaFactory.createForClass(ReleaseFile), required: true })
  file!: ReleaseFile;

  @Prop({ type: SchemaFactory.createForClass(ReleaseSignatureDoc), required: true })
  signature!: ReleaseSignatureDoc;

  @Prop({ type: String, required: true })
  status!: ReleaseStatus;

  @Prop({ type: Date, required: true })
  publishedAt!: Date;

  @Prop({ type: Date, default: null })
  yankedAt!: Date | null;

  @Prop({ type: Number, default: 0 })
  downloads!: number;
}

export const ReleaseSchema = SchemaFactory.createForClass(Release);
ReleaseSchema.index({ product: 1, platform: 1, arch: 1, channel: 1, version: 1, format: 1 }, { unique: true });
/** The unique index of releases before formats: a .deb and an .rpm of one version could not both exist. Dropped at start-up. */
export const RELEASE_INDEX_BEFORE_FORMATS = 'product_1_platform_1_arch_1_channel_1_version_1';
