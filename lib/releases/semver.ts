/**
 * Semantic versions (semver.org 2.0.0), framework-free: the server validates uploads and update
 * checks with it, and the apps' update check compares with the same rules.
 */

/** semver.org's regular expression (no leading zeros, dot-separated prerelease and build identifiers). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Longer versions are refused before the regular expression runs. */
export const SEMVER_MAX_LENGTH = 64;

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

export function parseSemver(value: unknown): SemVer | null {
  if (typeof value !== 'string' || value.length > SEMVER_MAX_LENGTH) return null;
  const match = SEMVER.exec(value);
  if (!match) return null;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
  if (![major, minor, patch].every(Number.isSafeInteger)) return null;
  return { major, minor, patch, prerelease: match[4] ? match[4].split('.') : [] };
}

export function isSemver(value: unknown): value is string {
  return parseSemver(value) !== null;
}

function compareIdentifiers(a: string, b: string): number {
  const numericA = /^\d+$/.test(a);
  const numericB = /^\d+$/.test(b);
  if (numericA && numericB) return Math.sign(Number(a) - Number(b));
  if (numericA) return -1;
  if (numericB) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Precedence (semver.org §11): negative when `a` is older, 0 when equal (build metadata ignored). */
export function compareSemver(a: string, b: string): number {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (!x || !y) throw new Error(`Not a semantic version: ${x ? b : a}`);
  for (const key of ['major', 'minor', 'patch'] as const) {
    if (x[key] !== y[key]) return Math.sign(x[key] - y[key]);
  }
  if (!x.prerelease.length || !y.prerelease.length) return Number(!x.prerelease.length) - Number(!y.prerelease.length);
  for (let i = 0; i < Math.max(x.prerelease.length, y.prerelease.length); i += 1) {
    if (x.prerelease[i] === undefined) return -1;
    if (y.prerelease[i] === undefined) return 1;
    const order = compareIdentifiers(x.prerelease[i], y.prerelease[i]);
    if (order !== 0) return order;
  }
  return 0;
}
