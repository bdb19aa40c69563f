import { createHash } from 'node:crypto';
import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import {
  type AnnouncementSettings,
  type ContactSettings,
  type GeneralSettings,
  type PrivacySettings,
  type PrivacySettingsResponse,
  type PublicAnnouncement,
  type PublicPrivacyPolicy,
  type PublicSiteSettings,
  type PublicSponsors,
  type PublicTerms,
  type RegistrationSettings,
  type SiteSettingsRequests,
  type SiteSettingsResponses,
  type SiteSettingsSection,
  SPONSOR_LOGO_MAX_BYTES,
  type SponsorLogoUploadResponse,
  sponsorLogoUrl,
  type SponsorsSettings,
  type TermsSettingsResponse,
} from '../../lib/api/site-settings.js';
import { analyticsDisclosure } from '../../lib/analytics/disclosure.js';
import { fillPlaceholders, type LegalValues, legalValues } from '../../lib/legal/placeholders.js';
import { renderInlineMarkdown, renderMarkdown } from '../../lib/markdown/markdown.js';
import { withSectionIds } from '../../lib/markdown/sections.js';
import { AnalyticsSettingsService } from '../analytics/analytics-settings.service.js';
import { AuditService } from '../audit/audit.service.js';
// A constant of the billing rules (not its service): how long a licence stays valid after a failed renewal.
import { GRACE_DAYS } from '../billing/billing-state.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { ReadCache } from '../common/read-cache.js';
import { FileStorage, type StoredFile } from '../storage/file-storage.js';
import { sniffImageType } from '../storage/image-type.js';
import { AnnouncementDismissal, SiteSettingsRecord } from './schemas/site-settings.schema.js';
import { SettingsErrorCode, SettingsException } from './settings.exception.js';
import { DEFAULT_TERMS } from './default-terms.js';
import {
  DEFAULT_ANNOUNCEMENT,
  DEFAULT_CONTACT,
  DEFAULT_GENERAL,
  DEFAULT_PRIVACY,
  DEFAULT_REGISTRATION,
  DEFAULT_SPONSORS,
} from './site-settings.defaults.js';
import { publicContentChanged } from '../common/public-content.js';

const SETTINGS_ID = 'site';
/**
 * Every page reads the settings, so each instance keeps them for a few seconds: a write here is
 * seen at once (the entry is forgotten), another instance sees it within this window. The database
 * stays the only copy.
 */
export const SITE_SETTINGS_CACHE_MS = 5000;
export const SPONSOR_LOGO_AREA = 'sponsor-logos';
/** A new logo gets a new id, so the bytes behind an id never change. */
export const SPONSOR_LOGO_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface SiteSettingsSnapshot {
  general: GeneralSettings;
  registration: RegistrationSettings;
  announcement: AnnouncementSettings;
  sponsors: SponsorsSettings;
  contact: ContactSettings;
  privacy: PrivacySettingsResponse;
  terms: TermsSettingsResponse;
}

/** The two legal documents: Markdown, saved with a last-updated time, placeholders filled when shown. */
type LegalSection = 'privacy' | 'terms';
const isLegalSection = (section: SiteSettingsSection): section is LegalSection => section === 'privacy' || section === 'terms';

type SectionValues = SiteSettingsRequests;
type SectionResponses = SiteSettingsResponses;

/** What the visitor's browser remembers (the announcement cookie) and who is signed in. */
export interface Viewer {
  user: SessionUser | null;
  dismissedCookie: string | undefined;
}

export function announcementVersion(announcement: AnnouncementSettings): string {
  const { text, tone, linkLabel, linkUrl } = announcement;
  return createHash('sha256')
    .update(JSON.stringify([text, tone, linkLabel, linkUrl]))
    .digest('hex')
    .slice(0, 16);
}

@Injectable()
export class SiteSettingsService {
  private readonly logger = new Logger(SiteSettingsService.name);
  private readonly cache = new ReadCache<SiteSettingsSnapshot>(SITE_SETTINGS_CACHE_MS, 1);
  /**
   * Each signed-in viewer's dismissed announcement version (null: none), so that pages do not read
   * it on every request while an announcement is up; forgotten here on every dismissal, seen by
   * other instances within the settings' own few seconds.
   */
  private readonly dismissed = new ReadCache<{ version: string | null }>(SITE_SETTINGS_CACHE_MS, 10_000);

  constructor(
    @InjectModel(SiteSettingsRecord.name) private readonly settings: Model<SiteSettingsRecord>,
    @InjectModel(AnnouncementDismissal.name) private readonly dismissals: Model<AnnouncementDismissal>,
    private readonly audit: AuditService,
    private readonly files: FileStorage,
    private readonly analyticsSettings: AnalyticsSettingsService,
    private readonly catalogue: CatalogueService,
  ) {}

  /** All sections, each its stored value over the defaults (so a section added later has one). */
  async snapshot(): Promise<SiteSettingsSnapshot> {
    const snapshot = await this.cache.get(SETTINGS_ID, async () => {
      const stored = await this.settings.findById(SETTINGS_ID).lean().exec();
      const legal = (value: unknown, fallback: PrivacySettings): PrivacySettingsResponse => {
        const saved = value as (PrivacySettings & { updatedAt?: Date }) | undefined;
        return {
          markdown: saved?.markdown ?? fallback.markdown,
          updatedAt: saved?.updatedAt ? new Date(saved.updatedAt).toISOString() : null,
        };
      };
      return {
        general: { ...DEFAULT_GENERAL, ...(stored?.general as GeneralSettings | undefined) },
        registration: { ...DEFAULT_REGISTRATION, ...(stored?.registration as RegistrationSettings | undefined) },
        announcement: { ...DEFAULT_ANNOUNCEMENT, ...(stored?.announcement as AnnouncementSettings | undefined) },
        sponsors: { ...DEFAULT_SPONSORS, ...(stored?.sponsors as SponsorsSettings | undefined) },
        contact: { ...DEFAULT_CONTACT, ...(stored?.contact as ContactSettings | undefined) },
        privacy: legal(stored?.privacy, DEFAULT_PRIVACY),
        terms: legal(stored?.terms, DEFAULT_TERMS),
      };
    });
    return snapshot!;
  }

  async section<S extends SiteSettingsSection>(section: S): Promise<SectionResponses[S]> {
    return (await this.snapshot())[section];
  }

  async registrationOpen(): Promise<boolean> {
    return (await this.snapshot()).registration.open;
  }

  /**
   * Saves one section (a `$set` of that field only) and records who changed what. The audit entry
   * carries a summary, not the whole value: a policy of 50 kB is summarised by its length.
   */
  async update<S extends SiteSettingsSection>(actor: SessionUser, section: S, value: SectionValues[S]): Promise<SectionResponses[S]> {
    const before = await this.section(section);
    let stored: unknown = value;
    if (section === 'sponsors') stored = await this.checkSponsors(value as SponsorsSettings);
    if (isLegalSection(section)) stored = { markdown: (value as PrivacySettings).markdown, updatedAt: new Date() };
    await this.settings.updateOne({ _id: SETTINGS_ID }, { $set: { [section]: stored, updatedAt: new Date() } }, { upsert: true }).exec();
    this.cache.forget(SETTINGS_ID);
    publicContentChanged();
    const after = await this.section(section);
    await this.writeAudit(actor, section, summarise(section, before), summarise(section, after));
    if (section === 'sponsors') await this.removeUnusedLogos(before as SponsorsSettings, after as SponsorsSettings);
    return after;
  }

  async publicSettings(viewer: Viewer): Promise<PublicSiteSettings> {
    const [{ general, registration, announcement }, analytics] = await Promise.all([this.snapshot(), this.analyticsSettings.fresh()]);
    return {
      siteName: general.siteName,
      registrationOpen: registration.open,
      announcement: await this.visibleAnnouncement(announcement, viewer),
      respectPrivacySignals: analytics.respectPrivacySignals,
    };
  }

  /**
   * Remembers the dismissal for the account (every device) when somebody is signed in; the caller
   * also sets the cookie, which is all an anonymous visitor has.
   */
  async dismissAnnouncement(user: SessionUser | null, version: string): Promise<void> {
    if (!user) return;
    await this.dismissals.updateOne({ _id: user.id }, { $set: { version, at: new Date() } }, { upsert: true }).exec();
    this.dismissed.forget(user.id);
  }

  async dismissalOf(userId: string): Promise<{ version: string; at: string } | null> {
    const dismissal = await this.dismissals.findById(userId).lean().exec();
    return dismissal ? { version: dismissal.version, at: dismissal.at.toISOString() } : null;
  }

  async deleteDismissalOf(userId: string): Promise<void> {
    await this.dismissals.deleteOne({ _id: userId }).exec();
    this.dismissed.forget(userId);
  }

  async publicSponsors(): Promise<PublicSponsors> {
    const { sponsors } = await this.snapshot();
    return {
      tiers: sponsors.tiers,
      sponsors: sponsors.sponsors.map(({ logoId, ...sponsor }) => ({ ...sponsor, logoUrl: logoId ? sponsorLogoUrl(logoId) : null })),
    };
  }

  /**
   * What the legal documents' placeholders stand for now: the site name and contact addresses
   * from the settings, the plans on sale from the catalogue (lib/legal/placeholders.ts). Also what
   * the editors in /admin/settings preview with.
   */
  async legalValues(): Promise<LegalValues> {
    const [{ general, contact }, catalogue] = await Promise.all([this.snapshot(), this.catalogue.catalogue()]);
    return legalValues({ siteName: general.siteName, ...contact, plans: catalogue.plans, graceDays: GRACE_DAYS });
  }

  /**
   * Rendered here, on the server, with its placeholders filled in: raw HTML in the Markdown is
   * escaped, so a `<script>` shows as text.
   */
  async publicPrivacyPolicy(): Promise<PublicPrivacyPolicy> {
    const [{ privacy }, values, analytics] = await Promise.all([this.snapshot(), this.legalValues(), this.analyticsSettings.fresh()]);
    return {
      ...withSectionIds(renderMarkdown(fillPlaceholders(privacy.markdown, values))),
      updatedAt: privacy.updatedAt,
      analyticsHtml: renderMarkdown(analyticsDisclosure(analytics)),
    };
  }

  /** The terms of /terms, as the privacy policy: placeholders filled from the settings and the catalogue, rendered here. */
  async publicTerms(): Promise<PublicTerms> {
    const [{ terms }, values] = await Promise.all([this.snapshot(), this.legalValues()]);
    return { ...withSectionIds(renderMarkdown(fillPlaceholders(terms.markdown, values))), updatedAt: terms.updatedAt };
  }

  /**
   * The type comes from the bytes, never from the name or the declared type. SVG is refused: it is
   * a document that can carry scripts, and a logo does not need to be one.
   */
  async uploadLogo(
    actor: SessionUser,
    file: { buffer: Buffer; size: number; originalname?: string } | undefined,
  ): Promise<SponsorLogoUploadResponse> {
    if (!file?.buffer?.length) throw new SettingsException(SettingsErrorCode.BadSponsorLogo, 'Choose an image file to upload', 'logo');
    if (file.size > SPONSOR_LOGO_MAX_BYTES) {
      throw new SettingsException(SettingsErrorCode.BadSponsorLogo, 'The logo must be 512 KB or smaller', 'logo');
    }
    const contentType = sniffImageType(file.buffer);
    if (!contentType) throw new SettingsException(SettingsErrorCode.BadSponsorLogo, 'The logo must be a PNG, JPEG or WebP image', 'logo');
    const logoId = await this.files.put(SPONSOR_LOGO_AREA, {
      body: file.buffer,
      contentType,
      length: file.buffer.length,
      cacheControl: SPONSOR_LOGO_CACHE_CONTROL,
      filename: `sponsor-logo-by-${actor.id}`,
    });
    return { logoId, url: sponsorLogoUrl(logoId) };
  }

  async logo(id: string): Promise<StoredFile> {
    const file = await this.files.get(SPONSOR_LOGO_AREA, id);
    if (!file) throw new NotFoundException('No such logo');
    return file;
  }

  private async dismissedVersionOf(userId: string): Promise<string | null> {
    const entry = await this.dismissed.get(userId, async () => ({
      version: (await this.dismissals.findById(userId).lean().exec())?.version ?? null,
    }));
    return entry?.version ?? null;
  }

  private async visibleAnnouncement(announcement: AnnouncementSettings, viewer: Viewer): Promise<PublicAnnouncement | null> {
    if (!announcement.enabled || !announcement.text.trim()) return null;
    const version = announcementVersion(announcement);
    if (viewer.dismissedCookie === version) return null;
    // Another device may have dismissed it: only for signed-in people whose cookie does not already say so.
    if (viewer.user && (await this.dismissedVersionOf(viewer.user.id)) === version) return null;
    return {
      version,
      html: renderInlineMarkdown(announcement.text),
      tone: announcement.tone,
      link: announcement.linkUrl ? { label: announcement.linkLabel, url: announcement.linkUrl } : null,
    };
  }

  /** Ids unique, every sponsor in a listed tier, every new logo really stored. */
  private async checkSponsors(value: SponsorsSettings): Promise<SponsorsSettings> {
    const tierIds = new Set<string>();
    value.tiers.forEach((tier, index) => {
      if (tierIds.has(tier.id)) {
        throw new SettingsException(SettingsErrorCode.InvalidSponsors, 'Two tiers have the same id', `tiers.${index}.id`);
      }
      tierIds.add(tier.id);
    });
    const sponsorIds = new Set<string>();
    const current = new Set((await this.section('sponsors')).sponsors.map((sponsor) => sponsor.logoId).filter(Boolean));
    for (const [index, sponsor] of value.sponsors.entries()) {
      if (sponsorIds.has(sponsor.id)) {
        throw new SettingsException(SettingsErrorCode.InvalidSponsors, 'Two sponsors have the same id', `sponsors.${index}.id`);
      }
      sponsorIds.add(sponsor.id);
      if (!tierIds.has(sponsor.tierId)) {
        throw new SettingsException(SettingsErrorCode.InvalidSponsors, 'Choose one of the tiers', `sponsors.${index}.tierId`);
      }
      if (sponsor.logoId && !current.has(sponsor.logoId) && !(await this.files.exists(SPONSOR_LOGO_AREA, sponsor.logoId))) {
        throw new SettingsException(SettingsErrorCode.InvalidSponsors, 'This logo is gone: upload it again', `sponsors.${index}.logoId`);
      }
    }
    return {
      tiers: value.tiers.map(({ id, name, monthlyAmount, currency, description, perks }) => ({
        id,
        name: name.trim(),
        monthlyAmount,
        currency,
        description: description.trim(),
        perks: perks.map((perk) => perk.trim()).filter(Boolean),
      })),
      sponsors: value.sponsors.map(({ id, name, url, tierId, logoId }) => ({ id, name: name.trim(), url, tierId, logoId: logoId ?? null })),
    };
  }

  /** The saved list no longer names them; a file that cannot be removed now is only logged. */
  private async removeUnusedLogos(before: SponsorsSettings, after: SponsorsSettings): Promise<void> {
    const kept = new Set(after.sponsors.map((sponsor) => sponsor.logoId));
    for (const { logoId } of before.sponsors) {
      if (!logoId || kept.has(logoId)) continue;
      await this.files.delete(SPONSOR_LOGO_AREA, logoId).catch((error: Error) => {
        this.logger.warn(`Could not remove the sponsor logo ${logoId} (${error.message}); it is no longer referenced`);
      });
    }
  }

  private async writeAudit(
    actor: SessionUser,
    section: SiteSettingsSection,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ): Promise<void> {
    const target = { type: 'site_settings' as const, id: section, label: SECTION_LABELS[section] };
    const action = `settings.${section}.update`;
    try {
      await this.audit.record({ actor: { id: actor.id, email: actor.email }, action, target, before, after });
    } catch (error) {
      this.logger.error(`Audit entry not written: ${action} by ${actor.id} ${JSON.stringify({ before, after })}`);
      throw error;
    }
  }
}

const SECTION_LABELS: Record<SiteSettingsSection, string> = {
  general: 'Site name',
  registration: 'Registration',
  announcement: 'Announcement banner',
  sponsors: 'Sponsors',
  contact: 'Contact addresses',
  privacy: 'Privacy policy',
  terms: 'Terms of service',
};

const clip = (text: string, length = 120) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** What the audit log keeps of a section: enough to see what changed, never a whole document. */
function summarise(section: SiteSettingsSection, value: unknown): Record<string, unknown> {
  switch (section) {
    case 'general':
    case 'registration':
    case 'contact':
      return { ...(value as Record<string, unknown>) };
    case 'announcement': {
      const announcement = value as AnnouncementSettings;
      return {
        enabled: announcement.enabled,
        tone: announcement.tone,
        text: clip(announcement.text),
        link: announcement.linkUrl ? `${announcement.linkLabel} → ${announcement.linkUrl}` : null,
        version: announcementVersion(announcement),
      };
    }
    case 'sponsors': {
      const sponsors = value as SponsorsSettings;
      return {
        tiers: sponsors.tiers.map((tier) => `${tier.name} (${tier.monthlyAmount / 100} ${tier.currency})`),
        sponsors: sponsors.sponsors.map((sponsor) => `${sponsor.name} [${sponsor.tierId}]`),
      };
    }
    case 'privacy':
    case 'terms': {
      const privacy = value as PrivacySettingsResponse;
      return {
        characters: privacy.markdown.length,
        sha256: createHash('sha256').update(privacy.markdown).digest('hex').slice(0, 12),
        updatedAt: privacy.updatedAt,
      };
    }
  }
}
