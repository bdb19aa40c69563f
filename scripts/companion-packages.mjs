// dist/companions/packages.json: the companion packages a build made, one row each
// ({ product, platform, arch, version, file, size, sha256 }). The releases publisher reads it
// (src/releases/companion-builds.ts: a fresh site's first start, `npm run publish:companions`), so a
// companion's build only has to write its packages beside it and call writePackages.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PACKAGES_FILE = 'packages.json';

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * Replaces `product`'s rows in `out`/packages.json with `rows`, keeping the other products' rows.
 * @param {string} out the folder (dist/companions)
 * @param {string} product e.g. hitscope-for-browsers
 * @param {Array<{ product: string, platform: string, arch: string, version: string, file: string, size: number, sha256: string }>} rows
 */
export function writePackages(out, product, rows) {
  const path = join(out, PACKAGES_FILE);
  const existing = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')).packages ?? []) : [];
  const packages = [...existing.filter((row) => row.product !== product), ...rows];
  writeFileSync(path, `${JSON.stringify({ packages }, null, 2)}\n`);
}
