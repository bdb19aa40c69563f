/**
 * The sections of a long Markdown document (the privacy policy, the terms): each `## ` heading gets
 * an id and a line in the table of contents.
 */
export interface DocumentSection {
  id: string;
  title: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * `## Right of withdrawal {#withdrawal}`: a heading that names its own id, for a section other
 * pages link to (`/terms#withdrawal`), so rewording the heading does not break those links.
 */
const EXPLICIT_ID = /\s*\{#([a-z][a-z0-9-]{0,59})\}\s*$/;

const slug = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'section';

/**
 * Gives each `<h2>` of rendered Markdown an id and lists them for a table of contents: the id the
 * heading names (`{#id}`, taken out of its text), else one made from its words; ids are unique.
 * The HTML is markdown-it's own output (raw HTML escaped), so its `<h2>` tags are exactly the `## `
 * headings.
 */
export function withSectionIds(html: string): { html: string; toc: DocumentSection[] } {
  const headings = [...html.matchAll(/<h2>([\s\S]*?)<\/h2>/g)].map((match) => {
    const explicit = EXPLICIT_ID.exec(match[1]!);
    return { inner: explicit ? match[1]!.slice(0, explicit.index) : match[1]!, explicit: explicit?.[1] ?? null };
  });
  // The named ids first, so that a heading whose words happen to make the same id gives way to them.
  const used = new Set<string>();
  const named = new Set(headings.map((heading) => heading.explicit).filter((id): id is string => id !== null));
  const toc: DocumentSection[] = [];
  let index = 0;
  const withIds = html.replace(/<h2>([\s\S]*?)<\/h2>/g, () => {
    const { inner, explicit } = headings[index++]!;
    const title = inner.replace(/<[^>]+>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);
    const base = explicit ?? slug(title);
    let id = base;
    for (let n = 2; used.has(id) || (!explicit && named.has(id)); n += 1) id = `${base}-${n}`;
    used.add(id);
    toc.push({ id, title });
    return `<h2 id="${id}">${inner}</h2>`;
  });
  return { html: withIds, toc };
}
