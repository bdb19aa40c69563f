import { domainToASCII } from 'node:url';
import { checkEmailAddress, domainToAscii, EMAIL_MESSAGES, normaliseEmailAddress } from './email-address.js';

describe('checkEmailAddress', () => {
  it.each([
    ['ada@example.test', 'ada@example.test'],
    ['Ada.Lovelace+hitscope@Example.TEST', 'ada.lovelace+hitscope@example.test'],
    ["o'hara!#$%&*/=?^_`{|}~-@example.test", "o'hara!#$%&*/=?^_`{|}~-@example.test"],
    ['user@sub.example.co.uk', 'user@sub.example.co.uk'],
  ])('accepts %j as %j', (input, address) => {
    expect(checkEmailAddress(input)).toEqual({ ok: true, address });
  });

  it('makes an internationalised domain and its punycode one address, stored in ASCII', () => {
    expect(normaliseEmailAddress('user@münchen.de')).toBe('user@xn--mnchen-3ya.de');
    expect(normaliseEmailAddress('user@MÜNCHEN.DE')).toBe('user@xn--mnchen-3ya.de');
    expect(normaliseEmailAddress('user@xn--mnchen-3ya.de')).toBe('user@xn--mnchen-3ya.de');
    expect(normaliseEmailAddress('user@例え.テスト')).toBe('user@xn--r8jz45g.xn--zckzah');
  });

  it('keeps a non-ASCII local part (RFC 6531), lower-cased and in NFC', () => {
    expect(normaliseEmailAddress('JÖRG@example.test')).toBe('jörg@example.test');
    // "o" + COMBINING DIAERESIS is the same address as "ö".
    expect(normaliseEmailAddress('jo\u0308rg@example.test')).toBe('jörg@example.test');
  });

  it.each([
    ['spaces', '  ada@example.test  '],
    ['no-break spaces', '\u00a0ada@example.test\u00a0'],
    ['an ideographic space', '\u3000ada@example.test'],
  ])('trims surrounding %s', (_label, input) => {
    expect(normaliseEmailAddress(input)).toBe('ada@example.test');
  });

  it.each([
    ['a NUL', 'ad\u0000a@example.test'],
    ['a trailing CR', 'ada@example.test\r'],
    ['a trailing LF', 'ada@example.test\n'],
    ['CRLF and a Bcc header', 'ada@example.test\r\nBcc: x@y.example'],
    ['a tab', 'ada\t@example.test'],
    ['DEL', 'ada\u007f@example.test'],
    ['a C1 control (NEL)', 'ada\u0085@example.test'],
    ['a C1 control (CSI)', 'ada\u009b31m@example.test'],
    ['a zero-width space', '\u200bada@example.test'],
    ['a zero-width space in the domain (which UTS #46 would silently drop)', 'ada@example.\u200btest'],
    ['a zero-width joiner', 'a\u200dda@example.test'],
    ['a right-to-left override', 'ada\u202e@example.test'],
    ['a left-to-right isolate', 'ada\u2066@example.test'],
    ['a right-to-left mark', 'ada\u200f@example.test'],
    ['a soft hyphen (dropped from domains)', 'ada@exam\u00adple.test'],
    ['a byte-order mark', '\ufeffada@example.test'],
    ['a line separator', 'ada\u2028@example.test'],
    ['a variation selector', 'ada\ufe0f@example.test'],
    ['a Hangul filler', 'ada\u3164@example.test'],
    ['a tag character', 'ada\u{e0041}@example.test'],
    ['a lone surrogate', 'ada\ud800@example.test'],
    ['a private-use character', 'ada\ue000@example.test'],
  ])('refuses %s with the invisible-character message', (_label, input) => {
    expect(checkEmailAddress(input)).toEqual({ ok: false, message: EMAIL_MESSAGES.hidden });
  });

  it.each([
    ['FULLWIDTH COMMERCIAL AT', 'ada\uff20example.test'],
    ['SMALL COMMERCIAL AT', 'ada\ufe6bexample.test'],
    ['a fullwidth @ smuggling a second domain', 'ada@evil.example\uff20example.test'],
  ])('refuses the @ look-alike %s', (_label, input) => {
    expect(checkEmailAddress(input)).toEqual({ ok: false, message: EMAIL_MESSAGES.atLookAlike });
  });

  it.each([
    ['a quoted local part holding an @', '"a@b"@c.test'],
    ['a quoted local part', '"ada"@example.test'],
    ['an @ in the local part', 'admin@example.test@evil.example'],
    ['two addresses', 'a@b.test@c.test'],
    ['a comma list', 'ada@example.test,eve@example.test'],
  ])('refuses %s: one address only', (_label, input) => {
    expect(checkEmailAddress(input)).toEqual({ ok: false, message: EMAIL_MESSAGES.oneAddress });
  });

  it.each([
    ['an empty string', ''],
    ['only spaces', '   '],
    ['no @', 'not-an-email'],
    ['nothing before the @', '@example.test'],
    ['nothing after the @', 'ada@'],
    ['a space inside', 'ada lovelace@example.test'],
    ['a no-break space inside', 'ada\u00a0lovelace@example.test'],
    ['a comma', 'ada,eve@example.test'],
    ['angle brackets', 'Ada <ada@example.test>'],
    ['a leading dot', '.ada@example.test'],
    ['two dots in a row', 'ada..l@example.test'],
    ['a backslash', 'ad\\a@example.test'],
    ['a domain without a dot', 'ada@localhost'],
    ['a trailing dot', 'ada@example.test.'],
    ['an empty label', 'ada@example..test'],
    ['a label starting with a hyphen', 'ada@-example.test'],
    ['an underscore in the domain', 'ada@ex_ample.test'],
    ['a percent-encoded domain', 'ada@ex%61mple.test'],
    ['an IPv4 domain', 'ada@127.0.0.1'],
    ['an IPv4 domain in hex', 'ada@0x7f.1'],
    ['an IP literal', 'ada@[127.0.0.1]'],
    ['a port', 'ada@example.test:25'],
    ['a path', 'ada@example.test/x'],
    ['a numeric top-level domain', 'ada@example.123'],
    ['an invalid punycode label', 'ada@xn--zz.test'],
    ['a fullwidth solidus (mapped to "/")', 'ada@a\uff0fb.test'],
    ['a number', 12345],
    ['null', null],
    ['an object', { $ne: null }],
  ])('refuses %s as invalid', (_label, input) => {
    expect(checkEmailAddress(input)).toEqual({ ok: false, message: EMAIL_MESSAGES.invalid });
  });

  it.each([
    ['a 60 000-character input', `${'a'.repeat(60_000)}@example.test`],
    ['a 65-octet local part', `${'a'.repeat(65)}@example.test`],
    ['a local part of 33 two-octet characters', `${'é'.repeat(33)}@example.test`],
    ['a 255-character address', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.test`],
  ])('refuses %s as too long', (_label, input) => {
    expect(checkEmailAddress(input)).toEqual({ ok: false, message: EMAIL_MESSAGES.tooLong });
  });

  it('accepts the longest local part and address', () => {
    const address = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(56)}.test`;
    expect(address).toHaveLength(254);
    expect(normaliseEmailAddress(address)).toBe(address);
  });
});

describe('domainToAscii', () => {
  // The WHATWG URL parser (usable in browsers too) and Node's url.domainToASCII are one algorithm.
  it.each(['münchen.de', 'MÜNCHEN.DE', 'xn--mnchen-3ya.de', 'ｅｘａｍｐｌｅ。test', 'faß.de', 'ελληνικά.gr', 'пример.рф', 'Example.TEST'])(
    'agrees with node:url domainToASCII on %j',
    (domain) => {
      expect(domainToAscii(domain)).toBe(domainToASCII(domain));
    },
  );

  it.each(['xn--zz.test', 'a\uff0fb.test', 'a b.test'])('refuses %j, as node:url does', (domain) => {
    expect(domainToAscii(domain)).toBeNull();
    expect(domainToASCII(domain)).toBe('');
  });
});
