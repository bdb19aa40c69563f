import { markdownToPlainText, renderInlineMarkdown, renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders headings, lists and links', () => {
    const html = renderMarkdown('# Title\n\n- one\n- [two](https://example.com/a)\n');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<a href="https://example.com/a" rel="noopener noreferrer nofollow">two</a>');
  });

  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses javascript: and data: links and renders no images', () => {
    const html = renderMarkdown('[x](javascript:alert(1)) [y](data:text/html,hi) ![z](https://example.com/z.png)');
    expect(html).not.toMatch(/href="(javascript|data):/);
    expect(html).not.toContain('<img');
  });

  it('moves headings down under a given level, keeping their order (release notes inside a card)', () => {
    const html = renderMarkdown('# New\n\n## Fixed\n\ntext\n\n###### deep', { firstHeadingLevel: 4 });
    expect(html).toContain('<h4>New</h4>');
    expect(html).toContain('<h5>Fixed</h5>');
    expect(html).toContain('<h6>deep</h6>');
    expect(renderMarkdown('### Already low', { firstHeadingLevel: 2 })).toBe('<h3>Already low</h3>\n');
    expect(renderMarkdown('## Plain')).toBe('<h2>Plain</h2>\n');
  });

  it('keeps same-site paths without nofollow', () => {
    expect(renderMarkdown('[p](/pricing)')).toContain('<a href="/pricing">p</a>');
  });
});

describe('renderInlineMarkdown', () => {
  it('renders emphasis and links without a paragraph or block elements', () => {
    expect(renderInlineMarkdown('**New:** see [docs](/docs)')).toBe('<strong>New:</strong> see <a href="/docs">docs</a>');
    expect(renderInlineMarkdown('# not a heading')).toBe('# not a heading');
  });
});

describe('markdownToPlainText', () => {
  it('keeps words, list items and link targets', () => {
    const text = markdownToPlainText('# News\n\nHello **you**.\n\n- one\n- [docs](https://example.com/d)\n');
    expect(text).toBe('News\n\nHello you.\n\n- one\n- docs (https://example.com/d)');
  });
});
