/**
 * IP addresses and CIDR ranges for the analytics ignore list (IPv4 and IPv6, IPv4-mapped IPv6 taken
 * as IPv4). Pure and allocation-light: the collector checks every event against the list.
 */

export interface IpRange {
  /** 4 bytes (IPv4) or 16 (IPv6), as a bigint. */
  base: bigint;
  bits: number;
  prefix: number;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = (value << 8n) | BigInt(byte);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split('::').length > 2) return null;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const expand = (list: string[]): number[] | null => {
    const out: number[] = [];
    for (const [index, group] of list.entries()) {
      if (group.includes('.') && index === list.length - 1) {
        const v4 = parseIpv4(group);
        if (v4 === null) return null;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-f]{1,4}$/i.test(group)) out.push(parseInt(group, 16));
      else return null;
    }
    return out;
  };
  const first = expand(groups(head));
  const last = tail === null ? [] : expand(groups(tail));
  if (!first || !last) return null;
  const missing = 8 - first.length - last.length;
  if (tail === null ? missing !== 0 : missing < 1) return null;
  const all = [...first, ...Array<number>(tail === null ? 0 : missing).fill(0), ...last];
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** An address as (value, bit length); IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes IPv4. */
export function parseIp(text: string): { value: bigint; bits: number } | null {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { value: v4, bits: 32 };
  const v6 = parseIpv6(trimmed);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { value: v6 & 0xffffffffn, bits: 32 };
  return { value: v6, bits: 128 };
}

/** `203.0.113.0/24`, `2001:db8::/32` or a single address; null when malformed. */
export function parseCidr(text: string): IpRange | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const prefix = prefixText === undefined ? ip.bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
  if (prefix < 0 || prefix > ip.bits) return null;
  const shift = BigInt(ip.bits - prefix);
  return { base: (ip.value >> shift) << shift, bits: ip.bits, prefix };
}

export function ipInRanges(ip: string, ranges: readonly IpRange[]): boolean {
  if (!ranges.length) return false;
  const parsed = parseIp(ip);
  if (!parsed) return false;
  return ranges.some((range) => {
    if (range.bits !== parsed.bits) return false;
    const shift = BigInt(range.bits - range.prefix);
    return (parsed.value >> shift) << shift === range.base;
  });
}
