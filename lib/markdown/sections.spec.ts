import { renderMarkdown } from './markdown.js';
import { withSectionIds } from './sections.js';

describe('withSectionIds', () => {
  it('gives each section heading an id and lists them in order, ids unique', () => {
    const { html, toc } = withSectionIds('<h2>Who we are</h2><p>x</p><h2>Cookies &amp; storage</h2><h2>Who we are</h2><h3>Not listed</h3>');
    expect(toc).toEqual([
      { id: 'who-we-are', title: 'Who we are' },
      { id: 'cookies-storage', title: 'Cookies & storage' },
      { id: 'who-we-are-2', title: 'Who we are' },
    ]);
    expect(html).toBe(
      '<h2 id="who-we-are">Who we are</h2><p>x</p><h2 id="cookies-storage">Cookies &amp; storage</h2><h2 id="who-we-are-2">Who we are</h2><h3>Not listed</h3>',
    );
  });

  it('keeps escaped markup escaped in the page and plain in the table of contents', () => {
    const { html, toc } = withSectionIds('<h2><em>Your</em> &lt;script&gt; rights</h2>');
    expect(html).toBe('<h2 id="your-script-rights"><em>Your</em> &lt;script&gt; rights</h2>');
    expect(toc).toEqual([{ id: 'your-script-rights', title: 'Your <script> rights' }]);
  });

  it('takes the id a heading names ({#id}) out of its text, before the ids made from words', () => {
    const { html, toc } = withSectionIds(
      renderMarkdown('## Withdrawal\n\n## Your right to withdraw {#withdrawal}\n\n## Again {#withdrawal}'),
    );
    expect(toc).toEqual([
      { id: 'withdrawal-2', title: 'Withdrawal' },
      { id: 'withdrawal', title: 'Your right to withdraw' },
      { id: 'withdrawal-3', title: 'Again' },
    ]);
    expect(html).toContain('<h2 id="withdrawal">Your right to withdraw</h2>');
    // Only a plain id: anything else stays text.
    expect(withSectionIds(renderMarkdown('## A {#"><script>}')).html).toContain('<h2 id="a-script">A {#&quot;&gt;&lt;script&gt;}</h2>');
  });
});
