import MarkdownIt from 'markdown-it';

/**
 * The one Markdown renderer of the site (privacy policy, terms, announcement banner, newsletter
 * campaigns, release notes).
 * Raw HTML in the source is never passed through: it is escaped and shows as text. Links are limited
 * to http(s), mailto and same-site paths, open no referrer and carry `nofollow`; images are not
 * rendered (a policy or a newsletter pulls nothing from a third party).
 */
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?!\/)|#)/i;

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.disable(['image']);
  md.validateLink = (url: string) => SAFE_HREF.test(url.trim());
  const defaultOpen = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const href = token.attrGet('href') ?? '';
    if (/^https?:\/\//i.test(href)) token.attrSet('rel', 'noopener noreferrer nofollow');
    return defaultOpen ? defaultOpen(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
  };
  md.core.ruler.push('shift_headings', (state) => {
    const first = (state.env as RenderEnv | undefined)?.firstHeadingLevel;
    if (!first) return;
    const headings = state.tokens.filter((token) => token.type === 'heading_open' || token.type === 'heading_close');
    const top = Math.min(...headings.map((token) => Number(token.tag.slice(1))));
    const shift = Math.max(0, first - top);
    for (const token of headings) token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + shift)}`;
  });
  return md;
}

interface RenderEnv {
  firstHeadingLevel?: number;
}

const blockRenderer = createRenderer();

/** Only emphasis, strong, code and links: for one-line texts such as the announcement banner. */
const inlineRenderer = createRenderer();
inlineRenderer.disable(['heading', 'lheading', 'list', 'blockquote', 'code', 'fence', 'hr', 'table', 'html_block', 'reference']);

/**
 * Markdown → sanitised HTML (block elements: headings, lists, quotes, code, tables). With
 * `firstHeadingLevel`, the text's headings move down so that its highest is that level and the
 * others keep their distance to it (release notes under a card's `<h3>` start at `<h4>`), up to `<h6>`.
 */
export function renderMarkdown(source: string, options: { firstHeadingLevel?: 2 | 3 | 4 | 5 | 6 } = {}): string {
  const env: RenderEnv = { firstHeadingLevel: options.firstHeadingLevel };
  return blockRenderer.render(source, env);
}

/** One line of Markdown → sanitised inline HTML, no wrapping paragraph. */
export function renderInlineMarkdown(source: string): string {
  return inlineRenderer.renderInline(source.replace(/\s*\n\s*/g, ' '));
}

/**
 * Markdown → readable plain text (the text/plain part of a newsletter): markup removed, links kept
 * as "text (url)", list items as "- ", paragraphs separated by a blank line.
 */
export function markdownToPlainText(source: string): string {
  const tokens = blockRenderer.parse(source, {});
  const blocks: { text: string; item: boolean }[] = [];
  let line = '';
  let listDepth = 0;
  const flush = () => {
    if (line.trim()) blocks.push({ text: line.trimEnd(), item: listDepth > 0 });
    line = '';
  };
  for (const token of tokens) {
    switch (token.type) {
      case 'bullet_list_open':
      case 'ordered_list_open':
        listDepth += 1;
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        listDepth -= 1;
        break;
      case 'list_item_open':
        flush();
        line = `${'  '.repeat(Math.max(0, listDepth - 1))}- `;
        break;
      case 'inline':
        line += inlineText(token.children ?? []);
        break;
      case 'fence':
      case 'code_block':
        flush();
        blocks.push({ text: token.content.replace(/\n$/, ''), item: false });
        break;
      case 'hr':
        flush();
        blocks.push({ text: '---', item: false });
        break;
      case 'paragraph_close':
      case 'heading_close':
        if (listDepth === 0) flush();
        break;
      case 'list_item_close':
        flush();
        break;
      default:
        break;
    }
  }
  flush();
  // Consecutive list items stay on consecutive lines; every other block is a paragraph.
  return blocks.map((block, index) => (index === 0 ? '' : block.item && blocks[index - 1]!.item ? '\n' : '\n\n') + block.text).join('');
}

function inlineText(children: ReturnType<MarkdownIt['parseInline']>[number]['children'] & object): string {
  let text = '';
  let href: string | null = null;
  let linkText = '';
  for (const child of children) {
    if (child.type === 'link_open') {
      href = child.attrGet('href');
      linkText = '';
    } else if (child.type === 'link_close') {
      text += href && href !== linkText ? `${linkText} (${href})` : linkText;
      href = null;
    } else {
      const piece = child.type === 'softbreak' || child.type === 'hardbreak' ? '\n' : child.content;
      if (href !== null) linkText += piece;
      else text += piece;
    }
  }
  return text;
}
