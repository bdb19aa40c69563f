import { formatOf, formatOfFilename, formatRank } from './formats.js';

describe('release formats', () => {
  it('reads the format from a file name, whatever its case, and nothing from other files', () => {
    expect(formatOfFilename('hitscope-for-apps_0.1.0_amd64.deb')).toBe('deb');
    expect(formatOfFilename('hitscope-for-apps-0.1.0-1.x86_64.rpm')).toBe('rpm');
    expect(formatOfFilename('Hitscope-1.0.0.DMG')).toBe('dmg');
    expect(formatOfFilename('setup.exe')).toBe('exe');
    expect(formatOfFilename('hitscope.xpi')).toBe('xpi');
    expect(formatOfFilename('hitscope.crx')).toBeNull();
    expect(formatOfFilename('hitscope.tar.gz')).toBeNull();
    expect(formatOfFilename('deb')).toBeNull();
  });

  it('takes a stored format over the file name, and the file name for releases stored before formats', () => {
    expect(formatOf({ format: 'rpm', file: { filename: 'x.deb' } })).toBe('rpm');
    expect(formatOf({ file: { filename: 'x.deb' } })).toBe('deb');
    expect(formatOf({ format: null, file: { filename: 'x.crx' } })).toBeNull();
  });

  it('prefers each platform’s usual package when an app does not say', () => {
    expect(formatRank('linux', 'deb')).toBeLessThan(formatRank('linux', 'rpm'));
    expect(formatRank('windows', 'msi')).toBeLessThan(formatRank('windows', 'exe'));
    expect(formatRank('linux', null)).toBeGreaterThan(formatRank('linux', 'zip'));
  });
});
