import type { Hit } from './types.js';

/** A secondary request follows its hit within this time (redirect chains, mirrors, signals pings). */
export const SECONDARY_WINDOW_MS = 60_000;
/** Mirrors are sent alongside their hit and may be logged just before it. */
const AHEAD_MS = 5_000;
/** At most this many hits are looked at for each secondary request (a bound on huge captures). */
const MAX_STEPS = 2_000;

function matches(secondary: Hit, hit: Hit): boolean {
  if (hit.secondary || hit.vendor !== secondary.vendor) return false;
  if (Boolean(hit.container) !== Boolean(secondary.container)) return false;
  if (secondary.accountId && hit.accountId !== secondary.accountId) return false;
  if (secondary.clientId && hit.clientId && hit.clientId !== secondary.clientId) return false;
  return true;
}

/**
 * Sets `follows` on each secondary request (Floodlight follow-ups, Google signals pings, pixel
 * mirrors, Tealium's tag files …): the id of the hit it repeats, which is the latest earlier hit of
 * the same vendor and account (and client id, where both carry one) within SECONDARY_WINDOW_MS, or
 * failing that one sent within AHEAD_MS after it. Hits must be in request order, ids assigned.
 */
export function linkSecondary(hits: Hit[]): void {
  for (const hit of hits) {
    if (!hit.secondary) continue;
    let found: Hit | undefined;
    for (let i = hit.id - 1, steps = 0; i >= 0 && steps < MAX_STEPS; i--, steps++) {
      const other = hits[i]!;
      if (hit.timeMs - other.timeMs > SECONDARY_WINDOW_MS) break;
      if (matches(hit, other)) {
        found = other;
        break;
      }
    }
    if (!found) {
      for (let i = hit.id + 1, steps = 0; i < hits.length && steps < MAX_STEPS; i++, steps++) {
        const other = hits[i]!;
        if (other.timeMs - hit.timeMs > AHEAD_MS) break;
        if (matches(hit, other)) {
          found = other;
          break;
        }
      }
    }
    if (found) hit.follows = found.id;
  }
}
