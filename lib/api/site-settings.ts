/**
 * Site settings (issue 12): edited per section in /admin/settings, read by every page. One document
 * holds them all; each section has its own GET + PUT under `/api/admin/site-settings/<section>`.
 */

export const SITE_NAME_MAX = 60;
export const ANNOUNCEMENT_TEXT_MAX = 280;
export const ANNOUNCEMENT_LINK_LABEL_MAX = 40;
export const URL_MAX = 2000;
export const PRIVACY_MARKDOWN_MAX = 100_000;
export const TERMS_MARKDOWN_MAX = 100_000;
/**
 * The terms' section on the right of withdrawal: Stripe Checkout's consent text links to
 * `/terms#withdrawal`, so the terms cannot be saved without a `## … {#withdrawal}` heading.
 */
export const WITHDRAWAL_SECTION_ID = 'withdrawal';
/** The terms' page; `${TERMS_PATH}#${WITHDRAWAL_SECTION_ID}` is what Checkout's consent text links to. */
export const TERMS_PATH = '/terms';
export const TIER_NAME_MAX = 60;
export const TIER_DESCRIPTION_MAX = 500;
export const TIER_PERK_MAX = 200;
export const TIER_PERKS_MAX = 12;
export const TIERS_MAX = 12;
export const SPONSOR_NAME_MAX = 100;
export const SPONSORS_MAX = 200;
export const SPONSOR_LOGO_MAX_BYTES = 512 * 1024;
export const SPONSOR_LOGO_FIELD = 'logo';
export const SPONSOR_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const SPONSOR_CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF'] as const;
export type SponsorCurrency = (typeof SPONSOR_CURRENCIES)[number];

export const SITE_SETTINGS_SECTIONS = ['general', 'registration', 'announcement', 'sponsors', 'contact', 'privacy', 'terms'] as const;
export type SiteSettingsSection = (typeof SITE_SETTINGS_SECTIONS)[number];

/** The first-party functional cookie that remembers the announcement an anonymous visitor dismissed. */
export const ANNOUNCEMENT_DISMISSED_COOKIE = 'hs_announcement';

export interface GeneralSettings {
  /** Shown in the headers and as the suffix of page titles. */
  siteName: string;
}

export interface RegistrationSettings {
  /** When false, `POST /api/auth/register` and first sign-ins through the OpenID provider are refused. */
  open: boolean;
}

export const ANNOUNCEMENT_TONES = ['info', 'warning'] as const;
export type AnnouncementTone = (typeof ANNOUNCEMENT_TONES)[number];

export interface AnnouncementSettings {
  enabled: boolean;
  /** Inline Markdown: emphasis, code and links. */
  text: string;
  tone: AnnouncementTone;
  /** Both empty, or both set: a label and an http(s) URL or a same-site path. */
  linkLabel: string;
  linkUrl: string;
}

export interface SponsorTier {
  /** Stable within the settings: sponsors name their tier by it. Lower-case letters, digits and dashes. */
  id: string;
  name: string;
  /** In minor units (cents). */
  monthlyAmount: number;
  currency: SponsorCurrency;
  description: string;
  perks: string[];
}

export interface Sponsor {
  id: string;
  name: string;
  url: string;
  tierId: string;
  /** A file in storage (`POST /api/admin/site-settings/sponsor-logos`), served at `/api/sponsor-logos/<id>`. */
  logoId: string | null;
}

/** Tiers and sponsors in display order. */
export interface SponsorsSettings {
  tiers: SponsorTier[];
  sponsors: Sponsor[];
}

/** The addresses the legal documents give (`{{legalEmail}}`, `{{privacyEmail}}`, lib/legal/placeholders.ts). */
export interface ContactSettings {
  legalEmail: string;
  privacyEmail: string;
}

/** A legal document in Markdown, with the placeholders of lib/legal/placeholders.ts. */
export interface PrivacySettings {
  markdown: string;
}

export interface PrivacySettingsResponse extends PrivacySettings {
  /** ISO time of the last save; null while the default policy of a fresh install is shown. */
  updatedAt: string | null;
}

export type TermsSettings = PrivacySettings;
export type TermsSettingsResponse = PrivacySettingsResponse;

export interface SponsorLogoUploadResponse {
  logoId: string;
  url: string;
}

/** What every page needs (layouts, titles, the register page), with the SSR page data. */
export interface PublicSiteSettings {
  siteName: string;
  registrationOpen: boolean;
  /** Null when there is none, or when this visitor dismissed this version of it. */
  announcement: PublicAnnouncement | null;
  /**
   * The analytics setting "honour Global Privacy Control and Do Not Track": when true, the tracker
   * sends nothing from a browser that sends either signal (the collector drops such page views too).
   */
  respectPrivacySignals: boolean;
}

export interface PublicAnnouncement {
  /** Changes with the text, link or tone: a dismissal holds for one version only. */
  version: string;
  /** Rendered on the server from the inline Markdown subset (raw HTML escaped). */
  html: string;
  tone: AnnouncementTone;
  link: { label: string; url: string } | null;
}

export interface DismissAnnouncementRequest {
  version: string;
}

export interface PublicSponsors {
  tiers: SponsorTier[];
  sponsors: Array<Omit<Sponsor, 'logoId'> & { logoUrl: string | null }>;
}

/** A legal document as its page shows it (`/terms`, `/privacy-policy`). */
export interface PublicLegalDocument {
  /**
   * Its placeholders filled in, then rendered on the server with `renderMarkdown` (raw HTML
   * escaped, safe links only); its `<h2>`s carry ids.
   */
  html: string;
  updatedAt: string | null;
  /** The `## ` sections, for the table of contents. */
  toc: Array<{ id: string; title: string }>;
}

/** `GET /api/site-settings/terms`. */
export type PublicTerms = PublicLegalDocument;

export interface PublicPrivacyPolicy extends PublicLegalDocument {
  /**
   * What the first-party analytics collects, generated from its live settings (retention, privacy
   * signals) and rendered on the server below the policy, so the policy can never fall out of date.
   */
  analyticsHtml: string;
}

export const sponsorLogoUrl = (logoId: string) => `/api/sponsor-logos/${encodeURIComponent(logoId)}`;

/** An http(s) URL, or a same-site path (`/pricing`, never `//elsewhere`). */
export function isSafeLinkUrl(value: string): boolean {
  if (/^\/(?![/\\])/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** What `PUT /api/admin/site-settings/<section>` takes. */
export interface SiteSettingsRequests {
  general: GeneralSettings;
  registration: RegistrationSettings;
  announcement: AnnouncementSettings;
  sponsors: SponsorsSettings;
  contact: ContactSettings;
  privacy: PrivacySettings;
  terms: TermsSettings;
}

/** What GET and PUT of a section answer (the legal documents with their last-updated time). */
export interface SiteSettingsResponses extends Omit<SiteSettingsRequests, 'privacy' | 'terms'> {
  privacy: PrivacySettingsResponse;
  terms: TermsSettingsResponse;
}
