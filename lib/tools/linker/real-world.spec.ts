import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interpret, toLinkerValue } from './cookies.js';
import { decode } from './linker.js';

/** `_gl` links copied from real browsers into public repositories (test/fixtures/linker/README.md). */
interface RealLink {
  name: string;
  source: string;
  input: string;
  keys: Record<string, string>;
}

const links = (JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/linker/real-world-links.json'), 'utf8')) as { links: RealLink[] })
  .links;

describe('real-world _gl links', () => {
  it.each(links.map((link) => [link.name, link] as const))('%s', (_name, link) => {
    const result = decode(link.input);
    if (!result.ok) throw new Error(result.error);
    expect(result.source).toBe('query');
    expect(Object.fromEntries(result.cookies.map((cookie) => [cookie.key, cookie.kind]))).toEqual(link.keys);
    for (const cookie of result.cookies) {
      expect(cookie.kind).not.toBe('unknown');
      expect(cookie.warnings).toEqual([]);
    }
  });

  it('reads FPAU like _gcl_au: the server-side Ads cookie is rebuilt with its 1.1. prefix', () => {
    const result = decode(links[1]!.input);
    if (!result.ok) throw new Error(result.error);
    const fpau = result.cookies.find((cookie) => cookie.key === 'FPAU')!;
    const au = result.cookies.find((cookie) => cookie.key === '_gcl_au')!;
    expect(fpau.value).toBe('2007231694.1774572728');
    expect(fpau).toMatchObject({
      cookieName: 'FPAU',
      cookieValue: '1.1.2007231694.1774572728',
      label: expect.stringMatching(/server-side/),
    });
    expect(fpau.value).toBe(au.value);
    expect(toLinkerValue('FPAU', '1.1.1678367427.1720678865')).toBe('1678367427.1720678865');
  });

  it('shows the extra fields of a long _gcl_au', () => {
    const result = decode(links[0]!.input);
    if (!result.ok) throw new Error(result.error);
    const au = result.cookies.find((cookie) => cookie.key === '_gcl_au')!;
    expect(au.details.find((detail) => detail.label.startsWith('Further fields'))?.value).toBe(
      '1540063924 · 1786992287 · 1786992287 · 2094318803 · 1786932707 · 1786992287',
    );
    expect(au.details[0]).toEqual({ label: 'Conversion linker id', value: '265139229.1786401284' });
  });

  it('shows _up and _gs as flags and questions a value that is not one digit', () => {
    expect(interpret('_up', '1')).toMatchObject({ kind: 'flag', cookieName: '_up', warnings: [] });
    expect(interpret('_gs', '1')).toMatchObject({ kind: 'flag' });
    expect(interpret('_up', 'abc').warnings).toHaveLength(1);
    expect(interpret('FPGCLAW', 'GCL.1763647300.Cj0KCQ')).toMatchObject({ kind: 'gclid', label: expect.stringMatching(/server-side/) });
  });
});
