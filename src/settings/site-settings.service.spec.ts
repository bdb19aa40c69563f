import { announcementVersion, withSectionIds } from './site-settings.service.js';
import { DEFAULT_ANNOUNCEMENT } from './site-settings.defaults.js';

describe('announcementVersion', () => {
  const base = { ...DEFAULT_ANNOUNCEMENT, enabled: true, text: 'Maintenance on *Sunday*' };

  it('is 16 hex digits, the same for the same announcement', () => {
    expect(announcementVersion(base)).toMatch(/^[a-f0-9]{16}$/);
    expect(announcementVersion({ ...base })).toBe(announcementVersion(base));
  });

  it('changes with what a person reads (text, tone, link), so a dismissed banner comes back for a new one', () => {
    const versions = new Set([
      announcementVersion(base),
      announcementVersion({ ...base, text: 'Maintenance on *Monday*' }),
      announcementVersion({ ...base, tone: 'warning' }),
      announcementVersion({ ...base, linkLabel: 'Status', linkUrl: '/status' }),
      announcementVersion({ ...base, linkLabel: 'Status', linkUrl: '/elsewhere' }),
    ]);
    expect(versions.size).toBe(5);
  });

  it('does not change when the banner is only switched off and on again', () => {
    expect(announcementVersion({ ...base, enabled: false })).toBe(announcementVersion(base));
  });
});

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
});
