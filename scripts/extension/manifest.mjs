// The extension's manifest: the hand-written one (companions/browser/manifest.json) stamped with the
// version of package.json, its Firefox variant, and the policy both must meet (least privilege, no
// remote code). The build refuses a manifest that breaks the policy; test/e2e/browser-extension-build
// checks the built one again.

/** Every permission the extension may ask for, and why (docs/browser-extension.md, "Permissions"). */
export const ALLOWED_PERMISSIONS = {
  webRequest: 'observe analytics requests (URL, body, status); observational only, nothing is blocked or changed',
  webNavigation: 'know when a page load starts in a tab, to group hits by page load',
  storage: 'settings, the licence and the device id (storage.local)',
  sidePanel: 'show the capture beside the page (Chrome, Edge)',
};
/** Never: they show warnings to people, or give far more than the extension needs. */
export const FORBIDDEN_PERMISSIONS = [
  'debugger',
  'tabs',
  'cookies',
  'history',
  'scripting',
  'declarativeNetRequest',
  'webRequestBlocking',
  'management',
  'nativeMessaging',
  'clipboardRead',
  'downloads',
];
export const ALLOWED_HOST_PERMISSIONS = ['<all_urls>'];
export const MINIMUM_CHROME_VERSION = 137;
export const FIREFOX_MINIMUM_VERSION = '128.0';

/**
 * A manifest `version` is 1–4 dot-separated integers of at most 65535: a semver pre-release
 * (`1.2.0-beta.1`) goes to `version_name` and its numbers to `version`.
 * @param {string} semver
 */
export function manifestVersion(semver) {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(semver);
  if (!match) throw new Error(`package.json version ${semver} is not semver`);
  const parts = match.slice(1, 4).map(Number);
  if (parts.some((part) => part > 65535)) throw new Error(`Version ${semver} has a part above 65535`);
  const pre = match[4] ? /(\d+)$/.exec(match[4])?.[1] : undefined;
  return { version: [...parts, ...(pre ? [Math.min(Number(pre), 65535)] : [])].join('.'), versionName: match[4] ? semver : undefined };
}

/**
 * @param {Record<string, any>} template companions/browser/manifest.json
 * @param {string} version the version of package.json
 */
export function chromeManifest(template, version) {
  const { version: numeric, versionName } = manifestVersion(version);
  return { ...template, version: numeric, ...(versionName ? { version_name: versionName } : {}) };
}

/**
 * Firefox reads the same Manifest V3 with three differences: a background script (it has no
 * extension service workers; `scripts` works as an event page), a sidebar instead of Chrome's side
 * panel, and the add-on id and data-collection declaration AMO requires.
 * @param {Record<string, any>} chrome
 * @param {string} geckoId
 */
export function firefoxManifest(chrome, geckoId) {
  const { side_panel: sidePanel, minimum_chrome_version: _minimum, background, ...rest } = chrome;
  return {
    ...rest,
    permissions: rest.permissions.filter((permission) => permission !== 'sidePanel'),
    background: { scripts: [background.service_worker], type: background.type },
    sidebar_action: { default_panel: sidePanel.default_path, default_title: 'Hitscope', default_icon: rest.action.default_icon },
    browser_specific_settings: {
      gecko: {
        id: geckoId,
        strict_min_version: FIREFOX_MINIMUM_VERSION,
        // Nothing the extension captures leaves the browser except the licence check (key and a hash of a random id).
        data_collection_permissions: { required: ['none'] },
      },
    },
  };
}

/**
 * What is wrong with a built manifest, in sentences; empty when nothing is.
 * @param {Record<string, any>} manifest
 */
export function manifestProblems(manifest) {
  const problems = [];
  if (manifest.manifest_version !== 3) problems.push('manifest_version must be 3');
  for (const permission of manifest.permissions ?? []) {
    if (FORBIDDEN_PERMISSIONS.includes(permission)) problems.push(`the permission "${permission}" is never needed`);
    else if (!(permission in ALLOWED_PERMISSIONS))
      problems.push(`the permission "${permission}" is not in the allow-list (add it there with its reason)`);
  }
  for (const host of [...(manifest.host_permissions ?? []), ...(manifest.optional_host_permissions ?? [])]) {
    if (!ALLOWED_HOST_PERMISSIONS.includes(host)) problems.push(`the host permission "${host}" is not in the allow-list`);
  }
  if (manifest.optional_permissions?.length) problems.push('optional_permissions are not in the allow-list');
  const csp = manifest.content_security_policy?.extension_pages ?? '';
  if (/unsafe-eval|unsafe-inline|https?:|\*/.test(csp)) problems.push(`the pages' CSP allows more than the package: ${csp}`);
  if (manifest.externally_connectable) problems.push('no web page may message the extension (externally_connectable)');
  if (manifest.web_accessible_resources?.length) problems.push('no resource of the extension is exposed to web pages');
  if (manifest.minimum_chrome_version !== undefined && Number(manifest.minimum_chrome_version) < MINIMUM_CHROME_VERSION) {
    problems.push(`minimum_chrome_version must be at least ${MINIMUM_CHROME_VERSION} (WebCrypto Ed25519 verifies the licence)`);
  }
  return problems;
}

/**
 * Remote code and eval in the built scripts (the Chrome Web Store's "Blue Argon" rule): a script
 * element or import pointing outside the package, eval, new Function, string timers.
 * @param {string} path
 * @param {string} text
 */
export function codeProblems(path, text) {
  const problems = [];
  if (/\beval\s*\(/.test(text)) problems.push(`${path} calls eval`);
  if (/\bnew\s+Function\s*\(/.test(text)) problems.push(`${path} uses new Function`);
  if (/\bimport\s*\(\s*["'`]https?:/.test(text) || /\bimportScripts\s*\(\s*["'`]https?:/.test(text))
    problems.push(`${path} loads remote code`);
  if (/<script[^>]+src=["']?(https?:)?\/\//i.test(text)) problems.push(`${path} has a remote script element`);
  return problems;
}
