import { compareSemver, isSemver, parseSemver } from './semver.js';

describe('semver', () => {
  it('accepts semantic versions and refuses everything else', () => {
    for (const good of ['0.0.1', '1.2.3', '10.20.30', '1.0.0-beta.2', '1.0.0-rc.1+build.5', '2.0.0+20261124']) {
      expect(isSemver(good)).toBe(true);
    }
    for (const bad of [
      '',
      '1',
      '1.2',
      'v1.2.3',
      '01.2.3',
      '1.2.3-',
      '1.2.3-01',
      '../1.2.3',
      '1.2.3/../../etc',
      '1.2.3 ',
      '1.2.3\n',
      'x'.repeat(80),
      7,
    ]) {
      expect(isSemver(bad)).toBe(false);
    }
    expect(parseSemver('99999999999999999999.0.0')).toBeNull();
  });

  it('orders by precedence, pre-releases before their release, build metadata ignored', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ];
    for (let i = 0; i < ordered.length - 1; i += 1) {
      expect(compareSemver(ordered[i], ordered[i + 1])).toBe(-1);
      expect(compareSemver(ordered[i + 1], ordered[i])).toBe(1);
    }
    expect(compareSemver('1.0.0+a', '1.0.0+b')).toBe(0);
    expect(() => compareSemver('1.0', '1.0.0')).toThrow();
  });
});
