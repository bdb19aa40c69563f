import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Request } from 'express';
import { type Model, Types } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import {
  type AdminRelease,
  type AdminReleaseList,
  type LatestReleasesResponse,
  RELEASE_FILE_FIELD,
  RELEASE_FILENAME,
  RELEASE_MAX_BYTES,
  RELEASE_NOTES_MAX_LENGTH,
  type ReleaseArch,
  type ReleaseChannel,
  type ReleaseFormat,
  RELEASE_FORMATS,
  type ReleasePlatform,
  type UpdateCheckResponse,
  type UploadReleaseFields,
} from '../../lib/api/releases.js';
import type { ProductSlug } from '../../lib/licences/key.js';
import { formatOf, formatOfFilename, formatRank } from '../../lib/releases/formats.js';
import { compareSemver } from '../../lib/releases/semver.js';
import { AuditService } from '../audit/audit.service.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { validationErrorBody } from '../common/validation.js';
import { isDuplicateKey } from '../database/upsert.js';
import { SigningKeysService } from '../licences/signing-keys.service.js';
import { type ByteRange, FileStorage, type StoredFile } from '../storage/file-storage.js';
import { DOWNLOAD_ENTITLEMENT, type DownloadEntitlement } from './download-entitlement.js';
import { UploadReleaseDto } from './dto/release.dto.js';
import { keyDownloadPath, toAdminRelease, toPublicRelease } from './dto/release.response.js';
import { HashingStream, receiveUpload } from './release-upload.js';
import { ReleasesErrorCode, ReleasesException } from './releases.exception.js';
import { Release, RELEASE_INDEX_BEFORE_FORMATS } from './schemas/release.schema.js';

/** The file storage area of builds. */
export const RELEASES_AREA = 'releases';

export const RELEASE_AUDIT_ACTIONS = {
  publish: 'release.publish',
  yank: 'release.yank',
  unyank: 'release.unyank',
} as const;

/** Content types by file name ending; anything else is served as bytes. Only ever sent with `attachment`. */
const CONTENT_TYPES: ReadonlyArray<[RegExp, string]> = [
  [/\.zip$/i, 'application/zip'],
  [/\.(tar\.gz|tgz)$/i, 'application/gzip'],
  [/\.dmg$/i, 'application/x-apple-diskimage'],
  [/\.msi$/i, 'application/x-msi'],
  [/\.exe$/i, 'application/vnd.microsoft.portable-executable'],
  [/\.deb$/i, 'application/vnd.debian.binary-package'],
  [/\.rpm$/i, 'application/x-rpm'],
  [/\.xpi$/i, 'application/x-xpinstall'],
  [/\.crx$/i, 'application/x-chrome-extension'],
];

interface StoredUpload {
  input: UploadReleaseDto;
  format: ReleaseFormat | null;
  filename: string;
  storageId: string;
  sha256: Buffer;
  size: number;
  contentType: string;
}

export interface ReleaseDownload {
  release: Release;
  file: StoredFile;
  range: ByteRange | null;
}

type NaturalKey = Pick<Release, 'product' | 'platform' | 'arch' | 'channel' | 'version' | 'format'>;

/** Who published a release: an administrator, or the server itself (`SYSTEM_ACTOR`) for bundled builds. */
export type ReleaseActor = Pick<SessionUser, 'id' | 'email'>;

/** The audit log's actor for builds the server publishes itself (first start, `npm run publish:companions`). */
export const SYSTEM_ACTOR: ReleaseActor = { id: 'system', email: 'system (bundled build)' };

const labelOf = (release: NaturalKey) =>
  `${release.product} ${release.version}${release.format ? ` .${release.format}` : ''} (${release.platform}/${release.arch}, ${release.channel})`;

/**
 * Releases: builds uploaded by administrators, streamed to file storage while hashed, signed with
 * the licensing key, listed for the site and the apps, and downloaded by people with a licence.
 */
@Injectable()
export class ReleasesService implements OnModuleInit {
  private readonly logger = new Logger(ReleasesService.name);

  constructor(
    @InjectModel(Release.name) private readonly releases: Model<Release>,
    private readonly storage: FileStorage,
    private readonly keys: SigningKeysService,
    private readonly audit: AuditService,
    private readonly catalogue: CatalogueService,
    @Inject(DOWNLOAD_ENTITLEMENT) private readonly entitlement: DownloadEntitlement,
  ) {}

  /**
   * A build is verified with the kid it was signed with for as long as it is offered, which can be
   * long after the 40 days a rotated-out key is published for leases: keep those keys published.
   */
  async onModuleInit(): Promise<void> {
    this.keys.keepPublishedWhileUsed(() => this.signingKidsInUse());
    await this.adoptFormats();
  }

  /**
   * Releases stored before package formats get theirs from the file name, and the old unique index
   * (which allowed one build per version, platform and arch) goes, so a .deb and an .rpm of one
   * version can both exist. Idempotent and cheap when done: every instance runs it at start-up.
   */
  private async adoptFormats(): Promise<void> {
    for (const format of RELEASE_FORMATS) {
      await this.releases
        .updateMany({ format: { $exists: false }, 'file.filename': { $regex: `\\.${format}$`, $options: 'i' } }, { $set: { format } })
        .exec();
    }
    await this.releases.updateMany({ format: { $exists: false } }, { $set: { format: null } }).exec();
    try {
      await this.releases.collection.dropIndex(RELEASE_INDEX_BEFORE_FORMATS);
      this.logger.log(`Dropped the unique index ${RELEASE_INDEX_BEFORE_FORMATS}: releases are now unique per package format too`);
    } catch {
      // Not there: a database created with formats, or another instance dropped it first.
    }
  }

  private async signingKidsInUse(): Promise<string[]> {
    const kids: unknown[] = await this.releases.distinct('signature.kid', { status: 'published' }).exec();
    return kids.filter((kid): kid is string => typeof kid === 'string');
  }

  /* Uploads --------------------------------------------------------------------------------------- */

  /** Receives an administrator's upload (multipart, streamed to storage), then records it ({@link record}). */
  async publish(actor: SessionUser, request: Request, now = new Date()): Promise<AdminRelease> {
    const { stored } = await receiveUpload<StoredUpload>(
      request,
      { fileField: RELEASE_FILE_FIELD, maxFileBytes: RELEASE_MAX_BYTES, maxFields: 9, maxFieldBytes: RELEASE_NOTES_MAX_LENGTH * 4 },
      (fields, file, filename) => this.store(fields, file, filename),
      (upload) => this.storage.delete(RELEASES_AREA, upload.storageId),
    );
    return this.record(stored, actor, now);
  }

  /**
   * Publishes a build this server has on disk (the companion packages `npm run build` writes, by
   * `npm run publish:companions` and on a fresh site's first start): the same validation, storage,
   * hash and signature as an upload. Idempotent: a version that exists is `exists`, not an error,
   * and a file whose SHA-256 differs from `expectSha256` (changed since it was built) is refused.
   */
  async publishBuild(
    actor: ReleaseActor,
    fields: Omit<UploadReleaseFields, 'size'>,
    file: { stream: NodeJS.ReadableStream & { destroy(error?: Error): void }; filename: string; size: number; expectSha256?: string },
    now = new Date(),
  ): Promise<{ outcome: 'published'; release: AdminRelease } | { outcome: 'exists' }> {
    let stored: StoredUpload;
    try {
      stored = await this.store({ ...fields, notes: fields.notes ?? '', size: String(file.size) }, file.stream, file.filename);
    } catch (error) {
      file.stream.destroy();
      if (error instanceof ReleasesException && error.code === ReleasesErrorCode.DuplicateVersion) return { outcome: 'exists' };
      throw error;
    }
    if (file.expectSha256 && stored.sha256.toString('hex') !== file.expectSha256.toLowerCase()) {
      await this.storage.delete(RELEASES_AREA, stored.storageId);
      throw ReleasesException.invalidUpload(`${file.filename} does not have the SHA-256 its build recorded: build it again`);
    }
    try {
      return { outcome: 'published', release: await this.record(stored, actor, now) };
    } catch (error) {
      // Another instance published the same version between the check and the insert.
      if (error instanceof ReleasesException && error.code === ReleasesErrorCode.DuplicateVersion) return { outcome: 'exists' };
      throw error;
    }
  }

  /** Whether any release of `product` exists, published or yanked (a fresh site has none). */
  async hasAnyRelease(product: ProductSlug): Promise<boolean> {
    return Boolean(await this.releases.exists({ product }).exec());
  }

  /**
   * Signs a stored build and writes its release document: a document exists only for a file that was
   * stored completely, and a file whose document cannot be written (a duplicate version that won a
   * race, a database failure) is deleted again.
   */
  private async record(stored: StoredUpload, actor: ReleaseActor, now: Date): Promise<AdminRelease> {
    const { input } = stored;
    let created: Release;
    try {
      const signature = await this.keys.signDetached(stored.sha256);
      created = (
        await this.releases.create({
          product: input.product,
          platform: input.platform,
          arch: input.arch,
          channel: input.channel,
          version: input.version,
          format: stored.format,
          notes: input.notes ?? '',
          file: {
            storageId: stored.storageId,
            filename: stored.filename,
            size: stored.size,
            sha256: stored.sha256.toString('hex'),
            contentType: stored.contentType,
          },
          signature: { kid: signature.kid, value: signature.signature },
          status: 'published',
          publishedAt: now,
          yankedAt: null,
          downloads: 0,
        })
      ).toObject();
    } catch (error) {
      await this.storage.delete(RELEASES_AREA, stored.storageId).catch((cleanup: Error) => {
        this.logger.error(`Could not delete the build ${stored.storageId} of a release that was not saved: ${cleanup.message}`);
      });
      if (isDuplicateKey(error)) throw ReleasesException.duplicate(labelOf({ ...input, format: stored.format }));
      throw error;
    }
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: RELEASE_AUDIT_ACTIONS.publish,
      target: { type: 'release', id: created._id.toString(), label: labelOf(created) },
      before: null,
      after: { version: created.version, sha256: created.file.sha256, size: created.file.size, filename: created.file.filename },
    });
    return toAdminRelease(created);
  }

  /** Validates what came before the file, then streams the file to storage through the hash. */
  private async store(
    fields: Record<string, string>,
    file: NodeJS.ReadableStream & { destroy(error?: Error): void },
    filename: string,
  ): Promise<StoredUpload> {
    const input = plainToInstance(UploadReleaseDto, fields);
    const errors = await validate(input, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } });
    if (errors.length) throw new ReleasesFieldsException(validationErrorBody(errors).fields ?? {});
    if (!RELEASE_FILENAME.test(filename) || filename.includes('..')) {
      throw new ReleasesFieldsException({
        [RELEASE_FILE_FIELD]: ['The file name must be a plain name of letters, digits and . _ + - (no path), at most 128 characters'],
      });
    }
    const named = formatOfFilename(filename);
    if (input.format && named && input.format !== named) {
      throw new ReleasesFieldsException({ format: [`format is ${input.format} but the file ${filename} is a .${named}`] });
    }
    const format = input.format ?? named;
    const size = Number(input.size);
    if (size > RELEASE_MAX_BYTES) throw ReleasesException.tooLarge(RELEASE_MAX_BYTES);
    // Before the bytes: an upload of an existing version is refused without storing it first.
    const key = this.naturalKey({ ...input, format });
    if (await this.releases.exists(key).exec()) throw ReleasesException.duplicate(labelOf(key));

    const hashing = new HashingStream(size);
    // Why the bytes stopped (the client went away, more or fewer bytes than `size`): the answer the
    // admin gets, whatever the storage made of it (S3 reports any failed body as unavailable).
    let streamError: Error | null = null;
    hashing.once('error', (error: Error) => (streamError = error));
    file.once('error', (error: Error) => hashing.destroy(error));
    file.pipe(hashing);
    const contentType = CONTENT_TYPES.find(([pattern]) => pattern.test(filename))?.[1] ?? 'application/octet-stream';
    let storageId: string;
    try {
      storageId = await this.storage.put(RELEASES_AREA, { body: hashing, contentType, length: size, filename });
    } catch (error) {
      throw streamError ?? error;
    }
    return { input, format, filename, storageId, sha256: hashing.digest!, size, contentType };
  }

  private naturalKey(input: NaturalKey): NaturalKey {
    const { product, platform, arch, channel, version, format } = input;
    return { product, platform, arch, channel, version, format };
  }

  /* Administration -------------------------------------------------------------------------------- */

  async list(product?: ProductSlug): Promise<AdminReleaseList> {
    const releases = await this.releases
      .find(product ? { product } : {})
      .sort({ publishedAt: -1, _id: -1 })
      .limit(500)
      .lean()
      .exec();
    return { releases: releases.map(toAdminRelease) };
  }

  /** Withdraws a release (or brings it back): it leaves the listings and its downloads answer 404. */
  async setYanked(actor: SessionUser, id: string, yanked: boolean, now = new Date()): Promise<AdminRelease> {
    const release = await this.releases.findById(id).lean().exec();
    if (!release) throw ReleasesException.notFound();
    const status = yanked ? 'yanked' : 'published';
    const updated = await this.releases
      .findByIdAndUpdate(id, { $set: { status, yankedAt: yanked ? (release.yankedAt ?? now) : null } }, { returnDocument: 'after' })
      .lean()
      .exec();
    if (!updated) throw ReleasesException.notFound();
    if (release.status !== status) {
      await this.audit.record({
        actor: { id: actor.id, email: actor.email },
        action: yanked ? RELEASE_AUDIT_ACTIONS.yank : RELEASE_AUDIT_ACTIONS.unyank,
        target: { type: 'release', id, label: labelOf(release) },
        before: { status: release.status },
        after: { status },
      });
    }
    return toAdminRelease(updated);
  }

  /* Listings -------------------------------------------------------------------------------------- */

  /** Published releases of a product on the channels given, newest first by version (computed here: P6). */
  private async published(
    product: ProductSlug,
    channels: ReleaseChannel[],
    platform?: ReleasePlatform,
    arch?: ReleaseArch,
  ): Promise<Release[]> {
    const filter: Record<string, unknown> = { product, status: 'published', channel: { $in: channels } };
    if (platform) filter.platform = platform;
    if (arch) filter.arch = arch;
    const releases = await this.releases.find(filter).lean().exec();
    return releases.sort((a, b) => compareSemver(b.version, a.version) || b.publishedAt.getTime() - a.publishedAt.getTime());
  }

  async latest(product: ProductSlug): Promise<LatestReleasesResponse> {
    const seen = new Set<string>();
    const latest: Release[] = [];
    for (const release of await this.published(product, ['stable'])) {
      // Per package too: Linux offers its .deb and its .rpm.
      const key = `${release.platform}/${release.arch}/${formatOf(release)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      latest.push(release);
    }
    latest.sort(
      (a, b) =>
        a.platform.localeCompare(b.platform) ||
        a.arch.localeCompare(b.arch) ||
        formatRank(a.platform, formatOf(a)) - formatRank(b.platform, formatOf(b)),
    );
    return { product, releases: latest.map(toPublicRelease) };
  }

  /**
   * The apps' update check: the beta channel gets the newest of beta and stable; an app names the
   * package format it installs, and one that does not (from before formats) gets the newest version
   * in its platform's usual format first (a Linux app: the .deb when there is one).
   */
  async updateCheck(
    query: {
      product: ProductSlug;
      platform: ReleasePlatform;
      arch: ReleaseArch;
      channel?: ReleaseChannel;
      current?: string;
      format?: ReleaseFormat;
    },
    key: string | null,
  ): Promise<UpdateCheckResponse> {
    const channels: ReleaseChannel[] = query.channel === 'beta' ? ['stable', 'beta'] : ['stable'];
    const candidates = (await this.published(query.product, channels, query.platform, query.arch)).filter(
      (release) => !query.format || formatOf(release) === query.format,
    );
    // Newest version first (published() sorts so); within it, the platform's usual format.
    const newest = candidates
      .filter((release) => compareSemver(release.version, candidates[0].version) === 0)
      .sort((a, b) => formatRank(query.platform, formatOf(a)) - formatRank(query.platform, formatOf(b)))[0];
    const entitled = key === null ? null : await this.entitlement.keyAllows(key, query.product);
    if (!newest) return { updateAvailable: false, entitled, latest: null };
    return {
      updateAvailable: query.current ? compareSemver(newest.version, query.current) > 0 : true,
      entitled,
      latest: {
        version: newest.version,
        notes: newest.notes,
        sha256: newest.file.sha256,
        size: newest.file.size,
        format: formatOf(newest),
        signature: { alg: 'EdDSA', kid: newest.signature.kid, value: newest.signature.value },
        url: keyDownloadPath(newest._id.toString()),
      },
    };
  }

  /* Downloads ------------------------------------------------------------------------------------- */

  private async downloadable(id: string): Promise<Release> {
    if (!Types.ObjectId.isValid(id)) throw ReleasesException.notFound();
    const release = await this.releases
      .findOne({ _id: new Types.ObjectId(id), status: 'published' })
      .lean()
      .exec();
    if (!release) throw ReleasesException.notFound();
    return release;
  }

  /**
   * A download from the site: free for anybody when an administrator made the product's downloads
   * free; otherwise the signed-in person's licence for the product decides (nobody signed in: 401).
   * A yanked release stays refused either way (`downloadable` answers 404 first).
   */
  async authoriseUser(id: string, userId: string | null): Promise<Release> {
    const release = await this.downloadable(id);
    const product = release.product as ProductSlug;
    if (await this.catalogue.downloadsFree(product)) return release;
    if (userId === null) throw ReleasesException.signInRequired();
    if (!(await this.entitlement.canDownload(userId, product))) throw ReleasesException.licenceRequired();
    return release;
  }

  /** An app's download: free like on the site when the product's downloads are, else the licence key it sends decides. */
  async authoriseKey(id: string, key: string | null): Promise<Release> {
    const release = await this.downloadable(id);
    if (await this.catalogue.downloadsFree(release.product as ProductSlug)) return release;
    if (key === null) throw ReleasesException.keyRequired();
    if (!(await this.entitlement.keyAllows(key, release.product as ProductSlug))) throw ReleasesException.keyRefused();
    return release;
  }

  async open(release: Release, range: ByteRange | null): Promise<StoredFile> {
    const file = await this.storage.get(RELEASES_AREA, release.file.storageId, range ?? undefined);
    if (!file) {
      this.logger.error(`The build of release ${release._id.toString()} (${release.file.storageId}) is missing from file storage`);
      throw ReleasesException.notFound();
    }
    return file;
  }

  /** One more download: the counter is the only field written on a download. */
  async countDownload(release: Release): Promise<void> {
    await this.releases.updateOne({ _id: release._id }, { $inc: { downloads: 1 } }).exec();
  }
}

/** A 400 that names the upload's fields, in the validation shape the forms read. */
class ReleasesFieldsException extends ReleasesException {
  constructor(private readonly fieldMessages: Record<string, string[]>) {
    super(ReleasesErrorCode.UploadInvalid, 'Validation failed');
  }

  override get fields(): Record<string, string[]> {
    return this.fieldMessages;
  }
}
