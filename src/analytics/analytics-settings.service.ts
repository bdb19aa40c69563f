import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { type IpRange, parseCidr } from '../../lib/analytics/cidr.js';
import { type AnalyticsSettings, DEFAULT_ANALYTICS_SETTINGS } from '../../lib/api/analytics.js';
import type { SessionUser } from '../../lib/api/auth.js';
import { AuditService } from '../audit/audit.service.js';
import { ANALYTICS_CLOCK, type Clock } from './clock.js';
import { AnalyticsSettingsDoc } from './schemas/analytics-settings.schema.js';
import { publicContentChanged } from '../common/public-content.js';

/** How long an instance uses the settings it read: a change is effective everywhere within this. */
export const SETTINGS_CACHE_MS = 5_000;
const SETTINGS_ID = 'analytics';

/** The settings with the ignore list parsed once, as the collector uses them on every event. */
export interface EffectiveAnalyticsSettings extends AnalyticsSettings {
  ipRanges: IpRange[];
}

function effective(settings: AnalyticsSettings): EffectiveAnalyticsSettings {
  return { ...settings, ipRanges: settings.ignoreIps.map(parseCidr).filter((range): range is IpRange => range !== null) };
}

@Injectable()
export class AnalyticsSettingsService {
  private cached: { until: number; value: EffectiveAnalyticsSettings } | null = null;
  private loading: Promise<EffectiveAnalyticsSettings> | null = null;

  constructor(
    @InjectModel(AnalyticsSettingsDoc.name) private readonly settings: Model<AnalyticsSettingsDoc>,
    private readonly audit: AuditService,
    @Inject(ANALYTICS_CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The settings for the hot path: never waits for the database when a value is known (a stale one
   * is used while a refresh runs); the defaults until the first read finishes.
   */
  current(): EffectiveAnalyticsSettings {
    const now = this.clock.now();
    if (!this.cached || this.cached.until <= now) void this.refresh().catch(() => undefined);
    return this.cached?.value ?? effective(DEFAULT_ANALYTICS_SETTINGS);
  }

  /** The settings from the cache while it is fresh, otherwise read: for pages that must state them truly. */
  async fresh(): Promise<EffectiveAnalyticsSettings> {
    if (this.cached && this.cached.until > this.clock.now()) return this.cached.value;
    return this.refresh();
  }

  /** Reads the settings (sharing a read in flight) and caches them for a few seconds. */
  refresh(): Promise<EffectiveAnalyticsSettings> {
    this.loading ??= this.read()
      .then((value) => {
        this.cached = { until: this.clock.now() + SETTINGS_CACHE_MS, value: effective(value) };
        return this.cached.value;
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }

  async read(): Promise<AnalyticsSettings> {
    const stored = await this.settings.findById(SETTINGS_ID).lean().exec();
    if (!stored) return { ...DEFAULT_ANALYTICS_SETTINGS };
    return {
      ignoreIps: stored.ignoreIps ?? [],
      ignorePaths: stored.ignorePaths ?? [],
      retentionDays: stored.retentionDays,
      respectPrivacySignals: stored.respectPrivacySignals,
      countAdmins: stored.countAdmins,
    };
  }

  /** Replaces the settings (validated by the DTO), audited with before and after. */
  async update(actor: SessionUser, next: AnalyticsSettings): Promise<AnalyticsSettings> {
    const before = await this.read();
    await this.settings
      .updateOne({ _id: SETTINGS_ID }, { $set: { ...next, updatedAt: new Date(this.clock.now()) } }, { upsert: true })
      .exec();
    // The privacy policy states these settings: its cached copies go.
    publicContentChanged();
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: 'analytics.settings.update',
      target: { type: 'analytics_settings', id: SETTINGS_ID, label: 'Analytics settings' },
      before: { ...before },
      after: { ...next },
    });
    this.cached = null;
    await this.refresh();
    return next;
  }
}
