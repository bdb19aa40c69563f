import { RELEASE_ARCHES, RELEASE_PLATFORMS } from '../api/releases.js';
import { COMPANION_PRODUCTS } from '../product.js';
import { archesOf, isReleaseTarget, platformsOf, releaseTargetProblem } from './targets.js';

const APPS = COMPANION_PRODUCTS.apps.slug;
const BROWSERS = COMPANION_PRODUCTS.browsers.slug;

describe('release targets', () => {
  it('ships the extension per browser, universal only, and the desktop app per system and processor', () => {
    expect(platformsOf(BROWSERS)).toEqual(['chrome', 'firefox', 'edge']);
    for (const platform of platformsOf(BROWSERS)) expect(archesOf(BROWSERS, platform)).toEqual(['universal']);
    expect(platformsOf(APPS)).toEqual(['windows', 'macos', 'linux']);
    expect(archesOf(APPS, 'windows')).toEqual(['x64', 'arm64']);
    expect(archesOf(APPS, 'macos')).toEqual(['x64', 'arm64', 'universal']);
    expect(archesOf(APPS, 'linux')).toEqual(['x64', 'arm64']);
  });

  it('accepts exactly the listed combinations, out of every product × platform × arch', () => {
    const accepted: string[] = [];
    for (const product of [APPS, BROWSERS]) {
      for (const platform of RELEASE_PLATFORMS) {
        for (const arch of RELEASE_ARCHES) {
          const ok = isReleaseTarget(product, platform, arch);
          expect(releaseTargetProblem(product, platform, arch) === null).toBe(ok);
          if (ok) accepted.push(`${product}/${platform}/${arch}`);
        }
      }
    }
    expect(accepted).toHaveLength(3 + 7);
  });

  it('names the field and the choices: a desktop build as a Chrome build is a wrong platform, a browser build for x64 a wrong arch', () => {
    expect(releaseTargetProblem(APPS, 'chrome', 'universal')).toEqual({
      field: 'platform',
      message: 'Hitscope for Apps does not ship on Chrome: choose one of windows, macos, linux',
    });
    expect(releaseTargetProblem(BROWSERS, 'linux', 'x64')).toEqual({
      field: 'platform',
      message: 'Hitscope for Browsers does not ship on Linux: choose one of chrome, firefox, edge',
    });
    expect(releaseTargetProblem(BROWSERS, 'chrome', 'x64')).toEqual({
      field: 'arch',
      message: 'Hitscope for Browsers on Chrome is built for universal, not x64',
    });
    expect(releaseTargetProblem(APPS, 'windows', 'universal')).toEqual({
      field: 'arch',
      message: 'Hitscope for Apps on Windows is built for x64, arm64, not Universal',
    });
  });
});
