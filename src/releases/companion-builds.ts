import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { RELEASE_ARCHES, RELEASE_CHANNELS, RELEASE_FILENAME, RELEASE_PLATFORMS, type ReleaseChannel } from '../../lib/api/releases.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../lib/licences/key.js';
import { isSemver } from '../../lib/releases/semver.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type ReleaseActor, ReleasesService, SYSTEM_ACTOR } from './releases.service.js';

/** One package `npm run build` wrote (a row of dist/companions/packages.json). */
export interface CompanionPackage {
  product: ProductSlug;
  platform: (typeof RELEASE_PLATFORMS)[number];
  arch: (typeof RELEASE_ARCHES)[number];
  version: string;
  /** A plain file name in the same folder. */
  file: string;
  size: number;
  sha256: string;
}

export const PACKAGES_FILE = 'packages.json';

export class CompanionPackagesError extends Error {
  override name = 'CompanionPackagesError';
}

/**
 * The companion packages in `dir`, as its packages.json lists them (scripts/build-extension.mjs
 * writes the extension's rows; another product's build adds its own the same way). Every row is
 * checked before anything is published: a wrong row is a build problem, said with the file and field.
 */
export function readCompanionPackages(dir: string): CompanionPackage[] {
  const path = join(dir, PACKAGES_FILE);
  if (!existsSync(path)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CompanionPackagesError(`${path} is not JSON (${(error as Error).message})`);
  }
  const rows = (parsed as { packages?: unknown } | null)?.packages;
  if (!Array.isArray(rows)) throw new CompanionPackagesError(`${path} has no "packages" list`);
  return rows.map((row: Partial<CompanionPackage>, index) => {
    const where = `${path}, package ${index + 1}`;
    if (!PRODUCT_SLUGS.includes(row.product as ProductSlug))
      throw new CompanionPackagesError(`${where}: product must be one of ${PRODUCT_SLUGS.join(', ')}`);
    if (!RELEASE_PLATFORMS.includes(row.platform as never))
      throw new CompanionPackagesError(`${where}: platform must be one of ${RELEASE_PLATFORMS.join(', ')}`);
    if (!RELEASE_ARCHES.includes(row.arch as never))
      throw new CompanionPackagesError(`${where}: arch must be one of ${RELEASE_ARCHES.join(', ')}`);
    if (!isSemver(row.version)) throw new CompanionPackagesError(`${where}: version must be semver`);
    if (typeof row.file !== 'string' || !RELEASE_FILENAME.test(row.file) || row.file.includes('..')) {
      throw new CompanionPackagesError(`${where}: file must be a plain file name`);
    }
    if (typeof row.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(row.sha256))
      throw new CompanionPackagesError(`${where}: sha256 must be 64 hex digits`);
    const file = join(dir, row.file);
    if (!existsSync(file)) throw new CompanionPackagesError(`${where}: ${row.file} is missing`);
    return { ...(row as CompanionPackage), size: statSync(file).size };
  });
}

export interface PublishOutcome {
  package: CompanionPackage;
  outcome: 'published' | 'exists' | 'skipped';
  releaseId?: string;
}

/**
 * Publishes the companion packages of a build through the releases service (stored, hashed and
 * signed like an administrator's upload). Used by `npm run publish:companions` (every package;
 * versions that exist are skipped) and on start-up, where a product is published only when it has
 * no release at all, so a newcomer's fresh site offers a real download and an administrator's own
 * releases are never added to. Two instances starting at once both try; the releases' unique index
 * lets one insert each version and the other finds it there (`exists`).
 */
@Injectable()
export class CompanionBuildsPublisher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CompanionBuildsPublisher.name);
  /** The start-up publication, for tests and for shutdown to wait on; resolved when there is none. */
  startUp: Promise<PublishOutcome[]> = Promise.resolve([]);

  constructor(
    private readonly releases: ReleasesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.companionBuilds.publishOnStart) return;
    // In the background: a slow storage never delays start-up, and a failure is logged, not fatal.
    this.startUp = this.publish(this.config.companionBuilds.dir, { onlyNewProducts: true }).then(
      (outcomes) => {
        for (const { package: item, outcome } of outcomes) {
          if (outcome === 'published')
            this.logger.log(`Published the bundled ${item.product} ${item.version} for ${item.platform} (${item.file})`);
        }
        return outcomes;
      },
      (error: unknown) => {
        this.logger.error(`Could not publish the bundled companion builds: ${error instanceof Error ? error.message : String(error)}`);
        return [];
      },
    );
  }

  /** A publication under way finishes (or fails) before the database closes under it. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.startUp;
  }

  async publish(
    dir: string,
    {
      channel = 'stable',
      notes = '',
      onlyNewProducts = false,
      actor = SYSTEM_ACTOR,
    }: { channel?: ReleaseChannel; notes?: string; onlyNewProducts?: boolean; actor?: ReleaseActor } = {},
  ): Promise<PublishOutcome[]> {
    if (!RELEASE_CHANNELS.includes(channel)) throw new CompanionPackagesError(`channel must be one of ${RELEASE_CHANNELS.join(', ')}`);
    const packages = readCompanionPackages(dir);
    const outcomes: PublishOutcome[] = [];
    const skip = new Set<ProductSlug>();
    if (onlyNewProducts) {
      for (const product of new Set(packages.map((item) => item.product)))
        if (await this.releases.hasAnyRelease(product)) skip.add(product);
    }
    for (const item of packages) {
      if (skip.has(item.product)) {
        outcomes.push({ package: item, outcome: 'skipped' });
        continue;
      }
      const result = await this.releases.publishBuild(
        actor,
        { product: item.product, platform: item.platform, arch: item.arch, channel, version: item.version, notes },
        { stream: createReadStream(join(dir, item.file)), filename: item.file, size: item.size, expectSha256: item.sha256 },
      );
      outcomes.push(
        result.outcome === 'published'
          ? { package: item, outcome: 'published', releaseId: result.release.id }
          : { package: item, outcome: 'exists' },
      );
    }
    return outcomes;
  }
}
