import { ipInRanges, parseCidr, parseIp } from './cidr.js';

const ranges = (...list: string[]) => list.map((entry) => parseCidr(entry)!);

describe('CIDR matching', () => {
  it('parses addresses and ranges, and refuses malformed ones', () => {
    expect(parseIp('203.0.113.7')).toEqual({ value: 0xcb007107n, bits: 32 });
    expect(parseIp('::ffff:203.0.113.7')).toEqual({ value: 0xcb007107n, bits: 32 });
    expect(parseIp('2001:db8::1')?.bits).toBe(128);
    for (const bad of ['256.1.1.1', '1.2.3', '1.2.3.4/33', 'abc', '2001:db8::1::2', '10.0.0.0/-1', '1.2.3.4/8/9', '']) {
      expect(parseCidr(bad)).toBeNull();
    }
  });

  it('matches IPv4 ranges and single addresses', () => {
    const list = ranges('10.0.0.0/8', '192.168.1.5');
    expect(ipInRanges('10.200.3.4', list)).toBe(true);
    expect(ipInRanges('11.0.0.1', list)).toBe(false);
    expect(ipInRanges('192.168.1.5', list)).toBe(true);
    expect(ipInRanges('192.168.1.6', list)).toBe(false);
    expect(ipInRanges('::ffff:10.1.1.1', list)).toBe(true);
  });

  it('matches IPv6 ranges and never mixes families', () => {
    const list = ranges('2001:db8::/32', '0.0.0.0/0');
    expect(ipInRanges('2001:db8:abcd::1', list)).toBe(true);
    expect(ipInRanges('2001:db9::1', list)).toBe(false);
    expect(ipInRanges('8.8.8.8', list)).toBe(true);
    expect(ipInRanges('not an ip', list)).toBe(false);
    expect(ipInRanges('8.8.8.8', [])).toBe(false);
  });
});
