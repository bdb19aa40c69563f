import { DUPLICATE_PAGE_VIEW_WINDOW_MS } from '../har/warnings.js';
import { GOOGLE_TAG_VENDORS, type HarWarning, type Hit, type Severity, type Vendor } from '../har/types.js';
import { type ConsentCommandEntry, carriedState, stateAt } from './consent-timeline.js';

/**
 * Checks only a live capture can make, because it knows what a file does not: which page load each
 * hit belongs to and the consent commands the page ran (the HAR analyser's own checks run as well).
 */
export type LiveWarningCode =
  | 'hit_before_consent_default'
  | 'identifiers_after_consent_denied'
  | 'consent_state_mismatch'
  | 'duplicate_page_view_in_load'
  | 'client_id_changed';

export const LIVE_WARNING_TITLES: Record<LiveWarningCode, string> = {
  hit_before_consent_default: 'Hits before the consent default',
  identifiers_after_consent_denied: 'Identifiers sent after consent was denied',
  consent_state_mismatch: 'Hit consent differs from the page',
  duplicate_page_view_in_load: 'Duplicate page_view in one page load',
  client_id_changed: 'Client ID changed within a page load',
};

/** A finding of either kind: the HAR analyser's codes or the live ones. */
export type CaptureWarning = Omit<HarWarning, 'code'> & { code: HarWarning['code'] | LiveWarningCode };

/** One page load's part of the capture, as the live checks read it. */
export interface LoadForChecks {
  hits: readonly Hit[];
  /** Its consent commands, in time order (consent-timeline.ts). */
  commands: readonly ConsentCommandEntry[];
}

/**
 * The storage a vendor's identifiers need under Google consent mode: analytics tags read and write
 * analytics cookies; every advertising tag (Google's and the pixels alike) falls under ad_storage.
 */
export function consentTypeFor(vendor: Vendor): 'analytics_storage' | 'ad_storage' {
  return vendor === 'ga4' || vendor === 'ua' ? 'analytics_storage' : 'ad_storage';
}

/** Parameters that identify a person besides the client id each decoder already names (`Hit.clientId`). */
const USER_DATA_KEY = /^(uid|user_id|ud\[|em$|external_id$|context\.user\.(external_id|email|phone_number))/;

/** The identifiers a hit carries: its client id (as its decoder names it) and user data. */
export function identifiersOf(hit: Hit): string[] {
  const found: string[] = [];
  if (hit.clientId) found.push(`client id ${hit.clientId}`);
  for (const param of hit.params) if (param.value && USER_DATA_KEY.test(param.key)) found.push(param.key);
  return found;
}

const pageWithoutHash = (hit: Hit) => (hit.page ?? '').split('#')[0];

/**
 * A request reaches the network a little after the tag made it (a beacon is queued, an image is
 * created, then the browser starts the request), while a consent command is timed when the page runs
 * it. A Google hit that carries no consent state and starts within this long after the default was
 * made before the default ran: gtag would have put the default's state on a hit it made after.
 */
export const QUEUED_BEFORE_DEFAULT_MS = 500;

export type WarningSink = (code: LiveWarningCode, severity: Severity, message: string, hit: Hit) => void;

/** Runs the live checks over one page load's hits (in time order), reporting each finding to `add`. */
export function checkLoad({ hits, commands }: LoadForChecks, add: WarningSink): void {
  const firstDefault = commands.find((command) => command.kind === 'default' && !command.region);
  const pageViews = new Map<string, Hit>();
  const clientIds = new Map<string, Hit>();
  for (const hit of hits) {
    if (hit.secondary) continue;
    const google = GOOGLE_TAG_VENDORS.has(hit.vendor);
    if (google && firstDefault) {
      const defaultAt = Math.floor(firstDefault.time);
      const stateless = !Object.keys(carriedState(hit)).length;
      if (hit.timeMs < defaultAt) {
        add(
          'hit_before_consent_default',
          'warning',
          `Sent ${defaultAt - hit.timeMs} ms before the page's gtag('consent', 'default'): the tag fired outside consent mode`,
          hit,
        );
      } else if (stateless && hit.timeMs - defaultAt <= QUEUED_BEFORE_DEFAULT_MS) {
        add(
          'hit_before_consent_default',
          'warning',
          `Carries no consent state and left ${hit.timeMs - defaultAt} ms after gtag('consent', 'default'): the tag made it before the default ran`,
          hit,
        );
      }
    }

    const state = stateAt(commands, hit.timeMs);
    const type = consentTypeFor(hit.vendor);
    if (state[type] === 'denied') {
      const identifiers = identifiersOf(hit);
      if (identifiers.length) {
        add(
          'identifiers_after_consent_denied',
          'error',
          `Sent after the page set ${type} to denied, with ${identifiers.slice(0, 3).join(', ')}${identifiers.length > 3 ? '…' : ''}`,
          hit,
        );
      }
    }

    if (google) {
      const carried = carriedState(hit);
      const mismatched = Object.keys(carried).filter((key) => state[key] !== undefined && state[key] !== carried[key]);
      if (mismatched.length) {
        add(
          'consent_state_mismatch',
          'warning',
          `The hit says ${mismatched.map((key) => `${key} ${carried[key]}`).join(', ')}, but the page's last consent command set ${mismatched
            .map((key) => `${key} ${state[key]}`)
            .join(', ')}`,
          hit,
        );
      }
    }

    if (hit.vendor === 'ga4' && hit.type === 'page_view' && hit.accountId) {
      const key = `${hit.accountId}|${pageWithoutHash(hit)}`;
      const previous = pageViews.get(key);
      // Within the HAR analyser's window its own duplicate check has reported it already.
      if (previous && hit.timeMs - previous.timeMs > DUPLICATE_PAGE_VIEW_WINDOW_MS) {
        add(
          'duplicate_page_view_in_load',
          'warning',
          `A second page_view for ${hit.accountId} on the same page in this page load (first: hit #${previous.id + 1})`,
          hit,
        );
      }
      if (!previous) pageViews.set(key, hit);
    }

    if (hit.vendor === 'ga4' && hit.accountId && hit.clientId) {
      const previous = clientIds.get(hit.accountId);
      if (previous && previous.clientId !== hit.clientId) {
        add(
          'client_id_changed',
          'warning',
          `Client ID ${hit.clientId} differs from ${previous.clientId} (hit #${previous.id + 1}) in the same page load: sessions and users will split`,
          hit,
        );
      }
      clientIds.set(hit.accountId, hit);
    }
  }
}
