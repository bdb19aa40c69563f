import { type ConsentValue, GOOGLE_TAG_VENDORS, type Hit } from '../har/types.js';
import { gtagCommand } from './datalayer.js';
import type { DataLayerRecord } from './records.js';

/**
 * Google consent mode over time, per page load: the `gtag('consent', 'default' | 'update', {…})`
 * commands the page ran (seen by the extension's MAIN-world script) and the state each Google tag
 * hit was sent under (`gcs` / `gcd`, decoded by the HAR analyser's consent.ts), side by side.
 *
 * gtag's rules, as Google documents them (developers.google.com/tag-platform/security/guides/consent):
 * `default` sets a type's state until an `update` changes it; a `default` with `region` applies only
 * to visitors in those regions, which the extension cannot know, so it is listed but does not change
 * the state computed here; a later region-less `default` for a type that already has one is ignored
 * by gtag ("the first default wins"), and so it is here.
 */

export const CONSENT_TYPES = [
  'ad_storage',
  'analytics_storage',
  'ad_user_data',
  'ad_personalization',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;

export type ConsentStateMap = Record<string, ConsentValue>;

export interface ConsentCommandEntry {
  kind: 'default' | 'update';
  time: number;
  /** What the command said, type by type (only `granted` / `denied` values are kept). */
  set: ConsentStateMap;
  /** Regions a `default` is limited to (ISO 3166-2), or null for every visitor. */
  region: string[] | null;
  /** Types whose state this command changed (a region default or a repeated default changes none). */
  changed: string[];
  /** The state after it. */
  state: ConsentStateMap;
  /** `wait_for_update` in milliseconds, when given. */
  waitForUpdate: number | null;
}

export interface ConsentHitEntry {
  kind: 'hit';
  time: number;
  hitId: number;
  /** The state the hit carried, per type, decoded from gcs/gcd. */
  carried: ConsentStateMap;
  /** The page's state (from its commands) when the hit was sent. */
  state: ConsentStateMap;
  /** Types where the hit and the page's commands disagree (both set, different values). */
  mismatched: string[];
}

export type ConsentTimelineEntry = ConsentCommandEntry | ConsentHitEntry;

const isValue = (value: unknown): value is 'granted' | 'denied' => value === 'granted' || value === 'denied';

/** The consent commands of one page load's dataLayer records, in time order, with the state after each. */
export function consentCommands(records: readonly DataLayerRecord[]): ConsentCommandEntry[] {
  const state: ConsentStateMap = {};
  const defaulted = new Set<string>();
  const out: ConsentCommandEntry[] = [];
  for (const record of records) {
    if (!record.gtag) continue;
    const command = gtagCommand(record.value);
    if (!command || command.command !== 'consent' || (command.target !== 'default' && command.target !== 'update') || !command.params) {
      continue;
    }
    const set: ConsentStateMap = {};
    for (const [key, value] of Object.entries(command.params)) if (isValue(value)) set[key] = value;
    const rawRegion = command.params.region;
    const region = Array.isArray(rawRegion) ? rawRegion.filter((item): item is string => typeof item === 'string') : null;
    const wait = command.params.wait_for_update;
    const changed: string[] = [];
    if (command.target === 'update') {
      for (const [key, value] of Object.entries(set)) {
        if (state[key] !== value) changed.push(key);
        state[key] = value;
      }
    } else if (!region?.length) {
      for (const [key, value] of Object.entries(set)) {
        if (defaulted.has(key)) continue;
        defaulted.add(key);
        // An update that came first (rare, but gtag queues commands) is not overridden by a default.
        if (state[key] === undefined) {
          state[key] = value;
          changed.push(key);
        }
      }
    }
    out.push({
      kind: command.target,
      time: record.time,
      set,
      region: region?.length ? region : null,
      changed,
      state: { ...state },
      waitForUpdate: typeof wait === 'number' && Number.isFinite(wait) ? wait : null,
    });
  }
  return out;
}

/** The page's consent state at `time`: the state after the last command at or before it. */
export function stateAt(commands: readonly ConsentCommandEntry[], time: number): ConsentStateMap {
  let state: ConsentStateMap = {};
  for (const command of commands) {
    if (command.time > time) break;
    state = command.state;
  }
  return state;
}

/** What a Google hit's gcs/gcd said, per type ('not set' types left out). */
export function carriedState(hit: Hit): ConsentStateMap {
  const carried: ConsentStateMap = {};
  if (!hit.consent || hit.consent.source) return carried;
  for (const signal of hit.consent.signals) if (signal.state !== 'not set') carried[signal.type] = signal.state;
  return carried;
}

/**
 * The timeline of one page load: its consent commands and its Google tag hits (with the state they
 * carried, or none: a hit without gcs/gcd before the default is what the timeline must show), in
 * time order (a command and a hit in the same millisecond: the command first, as gtag runs a command
 * before the hits it affects).
 */
export function consentTimeline(records: readonly DataLayerRecord[], hits: readonly Hit[]): ConsentTimelineEntry[] {
  const commands = consentCommands(records);
  const entries: ConsentTimelineEntry[] = [...commands];
  for (const hit of hits) {
    if (hit.secondary || !GOOGLE_TAG_VENDORS.has(hit.vendor)) continue;
    const carried = carriedState(hit);
    const state = stateAt(commands, hit.timeMs);
    const mismatched = Object.keys(carried).filter((type) => state[type] !== undefined && state[type] !== carried[type]);
    entries.push({ kind: 'hit', time: hit.timeMs, hitId: hit.id, carried, state, mismatched });
  }
  return entries.sort((a, b) => a.time - b.time || (a.kind === 'hit' ? 1 : 0) - (b.kind === 'hit' ? 1 : 0));
}
