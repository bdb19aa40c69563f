/**
 * A counter of changes to what anonymous pages show (site settings, the catalogue, route rules),
 * bumped by the services that write them. The page cache (src/ssr/page-cache.ts) drops every entry
 * rendered before the latest change, so an admin's edit is on this instance's next page at once.
 * Per process on purpose: other instances drop their entries by age (PAGE_CACHE_TTL_MS).
 */
let generation = 0;

export function publicContentChanged(): void {
  generation += 1;
}

export function publicContentGeneration(): number {
  return generation;
}
