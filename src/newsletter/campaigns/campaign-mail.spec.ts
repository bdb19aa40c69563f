import { deliveryMessageId, formatSender, renderCampaign } from './campaign-mail.js';

const SITE = { name: 'Hitscope', publicUrl: 'https://hitscope.test' };
const LINKS = { unsubscribePage: 'https://hitscope.test/newsletter/unsubscribe?token=abc.def' };

describe('campaign mail', () => {
  it('renders Markdown into styled HTML and plain text, both with the unsubscribe link', () => {
    const mail = renderCampaign(
      { subject: 'Release 2.0', body: '# Hello\n\nSee [pricing](/pricing) and <b>raw</b>.\n\n- one\n- two' },
      LINKS,
      SITE,
    );
    expect(mail.html).toContain('<h1 style="font-size:24px');
    expect(mail.html).toContain('href="https://hitscope.test/pricing"');
    expect(mail.html).toContain('&lt;b&gt;raw&lt;/b&gt;');
    expect(mail.html).toContain(`href="https://hitscope.test/newsletter/unsubscribe?token=abc.def"`);
    expect(mail.text).toContain('pricing (https://hitscope.test/pricing)');
    expect(mail.text).toContain('- one');
    expect(mail.text).toContain(`Unsubscribe: ${LINKS.unsubscribePage}`);
    expect(mail.text).not.toMatch(/<h1|style=/);
  });

  it('derives a stable Message-ID per delivery without the address in it', () => {
    const id = deliveryMessageId('c1', 'ada@example.com', 'hitscope.test');
    expect(id).toBe(deliveryMessageId('c1', 'ada@example.com', 'hitscope.test'));
    expect(id).not.toBe(deliveryMessageId('c1', 'bob@example.com', 'hitscope.test'));
    expect(id).toMatch(/^<campaign\.c1\.[\w-]{22}@hitscope\.test>$/);
    expect(id).not.toContain('ada');
  });

  it('quotes the sender name', () => {
    expect(formatSender('Hitscope "News"', 'news@hitscope.test')).toBe('"Hitscope \\"News\\"" <news@hitscope.test>');
    expect(formatSender('', 'news@hitscope.test')).toBe('news@hitscope.test');
  });
});
