import type { UpdateCheckResponse } from '../../../lib/api/releases.js';
import { fetchKeys } from '../../../lib/licensing/check.js';
import { verifyReleaseSignature } from '../../../lib/licensing/release-signature.js';
import { backend, type VerifiedUpdate } from './backend.js';
import { PRODUCT, trustedKeys } from './licence/licence.js';
import { siteFetch } from './licence/site-fetch.js';
import type { AppInfo, Settings } from './types.js';

export type Latest = NonNullable<UpdateCheckResponse['latest']>;

/** `GET /api/v1/releases/latest` for this build: product, platform, arch, channel, version and package format. */
export async function checkForUpdate(info: AppInfo, settings: Settings, licenceKey: string | null): Promise<UpdateCheckResponse> {
  const query = new URLSearchParams({
    product: PRODUCT,
    platform: info.platform,
    arch: info.arch,
    channel: settings.updateChannel,
    current: info.version,
    format: info.format,
  });
  const response = await siteFetch(`${settings.siteUrl}/api/v1/releases/latest?${query}`, {
    headers: licenceKey ? { authorization: `License ${licenceKey}` } : {},
  }).catch(() => {
    throw new Error(`The site at ${settings.siteUrl} could not be reached.`);
  });
  if (!response.ok) throw new Error(`The site answered ${response.status} to the update check.`);
  return (await response.json()) as UpdateCheckResponse;
}

/**
 * Downloads an update and has it verified: the signature over the announced SHA-256 is checked
 * here before a byte is downloaded (with the keys the licence trusts, fetched again from the site
 * when the build names a newer key), then the back end checks the downloaded file's SHA-256 and the
 * signature once more before it offers it. An unsigned or altered build is never offered.
 */
export async function downloadUpdate(latest: Latest, info: AppInfo, siteUrl: string, licenceKey: string | null): Promise<VerifiedUpdate> {
  let keys = await trustedKeys();
  let verdict = await verifyReleaseSignature(latest.sha256, latest.signature, keys);
  if (!verdict.ok && verdict.unknownKid) {
    keys = await fetchKeys(siteUrl, { fetch: siteFetch });
    verdict = await verifyReleaseSignature(latest.sha256, latest.signature, keys);
  }
  if (!verdict.ok || !keys)
    throw new Error(`Version ${latest.version} is not offered: ${verdict.ok ? 'no signing keys' : verdict.reason}.`);
  return backend.updateDownload({
    url: latest.url,
    version: latest.version,
    sha256: latest.sha256,
    size: latest.size,
    signature: { kid: latest.signature.kid, value: latest.signature.value },
    jwks: { keys: keys.keys.map(({ kid, kty, crv, x }) => ({ kid, kty, crv, x })) },
    licenceKey,
    format: info.format,
  });
}
