import { PRODUCT } from '../product.js';

const SEPARATOR = ' — ';

/**
 * Route titles are written with the product name (`Sign in — Hitscope`, `Hitscope — analytics
 * debugging tools…`); an admin may rename the site. The name is swapped where it stands as the
 * brand — the suffix or the prefix of the title — and nowhere else, so "Hitscope for Apps" in a tool's
 * title stays the product it is.
 */
export function siteTitle(title: string, siteName: string | undefined): string {
  if (!siteName || siteName === PRODUCT.name) return title;
  if (title === PRODUCT.name) return siteName;
  // The last part names the site: "Sign in — Hitscope", "Settings — Hitscope admin".
  const last = title.lastIndexOf(SEPARATOR);
  if (last >= 0) {
    const tail = title.slice(last + SEPARATOR.length);
    if (tail === PRODUCT.name || tail.startsWith(`${PRODUCT.name} `)) {
      return `${title.slice(0, last + SEPARATOR.length)}${siteName}${tail.slice(PRODUCT.name.length)}`;
    }
  }
  // "Sponsor Hitscope": the name ends the title.
  if (title.endsWith(` ${PRODUCT.name}`)) return `${title.slice(0, -PRODUCT.name.length)}${siteName}`;
  if (title.startsWith(`${PRODUCT.name}${SEPARATOR}`)) return `${siteName}${title.slice(PRODUCT.name.length)}`;
  return title;
}
