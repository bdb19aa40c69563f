import { Injectable } from '@nestjs/common';
import type { ActivationSummary, LeasePayload, LicenceApiResponse, LicenceCode, LicenceSummary } from '../../lib/api/licences.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { parseKey, type ProductSlug } from '../../lib/licences/key.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { LicenceApiRequestDto } from './dto/licence-api.dto.js';
import { CODE_DETAIL, licenceCode, validUntil } from './licence-status.js';
import { LicenceCryptoService } from './licence-crypto.service.js';
import { LicencesService } from './licences.service.js';
import type { Licence } from './schemas/licence.schema.js';
import type { LicenceActivation } from './schemas/licence-activation.schema.js';
import { SeatsService } from './seats.service.js';
import { SigningKeysService } from './signing-keys.service.js';

const DAY_S = 24 * 60 * 60;
/** A lease asks the app to validate again within a week… */
export const LEASE_DAYS = 7;
/** …and lets it work offline this much longer: a desktop app may be offline for weeks, the extension is online with its browser. */
export const GRACE_DAYS: Record<ProductSlug, number> = { [COMPANION_PRODUCTS.apps.slug]: 30, [COMPANION_PRODUCTS.browsers.slug]: 7 };

/** Per key and client address: an app validates a few times a day; this is generous for offices behind one address. */
export const KEY_RATE_LIMIT = { scope: 'ip', limit: 30, windowSeconds: 600, buffered: true } as const;

type Operation = 'activate' | 'validate' | 'deactivate';
type Answer = (
  code: LicenceCode,
  licence?: LicenceSummary | null,
  activation?: ActivationSummary | null,
  lease?: string | null,
) => LicenceApiResponse;

/**
 * The apps' and the extension's licensing API. Every decision is a 200 with `valid` and `code`, so
 * a client can tell "denied" from "could not ask" (429, 5xx, network: offline, grace applies).
 */
@Injectable()
export class LicensingApiService {
  constructor(
    private readonly licences: LicencesService,
    private readonly seats: SeatsService,
    private readonly crypto: LicenceCryptoService,
    private readonly limits: RateLimitService,
    private readonly signing: SigningKeysService,
  ) {}

  async handle(operation: Operation, input: LicenceApiRequestDto, ip: string, now = new Date()): Promise<LicenceApiResponse> {
    const nonce = input.nonce ?? null;
    const answer: Answer = (code, licence = null, activation = null, lease = null) => ({
      valid: code === 'VALID',
      code,
      detail: CODE_DETAIL[code],
      ts: now.toISOString(),
      nonce,
      licence,
      activation,
      lease,
    });
    // A typo is refused offline, as the apps refuse it: no database read for a key that cannot exist.
    const key = parseKey(input.key);
    if (!key) return answer('NOT_FOUND');
    const lookup = this.crypto.lookup(key.normalised);
    await this.limits.hitBuffered('licence-key', KEY_RATE_LIMIT, `${lookup}|${ip}`);
    if (operation === 'validate') return this.validate(lookup, input, nonce, now, answer);

    const licence = await this.licences.findByKey(key);
    if (!licence) return answer('NOT_FOUND');
    if (licence.product !== input.product) return answer('WRONG_PRODUCT', await this.licences.summary(licence, now));

    if (operation === 'deactivate') {
      const outcome = await this.seats.deactivate(licence._id, input.fingerprint, now);
      return answer(outcome, await this.licences.summary(licence, now));
    }

    const code = licenceCode(licence, now);
    if (code !== 'VALID') return answer(code, await this.licences.summary(licence, now));
    const device = { name: input.name, platform: input.platform, appVersion: input.appVersion };
    const activation = await this.seats.activate(licence, input.fingerprint, device, now);
    if (!activation) return answer('NO_SEATS_LEFT', await this.licences.summary(licence, now));
    const lease = await this.lease(licence, input.fingerprint, nonce, now);
    return answer('VALID', await this.licences.summary(licence, now), toActivationSummary(activation), lease);
  }

  /**
   * The call every app start makes, answered from the read cache (licence-read-cache.ts): no database
   * round trip for a device seen within the last half minute, one write an hour per device for its
   * last-seen time. Activate and deactivate always read the database: they decide seats.
   */
  private async validate(
    keyLookup: string,
    input: LicenceApiRequestDto,
    nonce: string | null,
    now: Date,
    answer: Answer,
  ): Promise<LicenceApiResponse> {
    const licence = await this.licences.findByLookupCached(keyLookup);
    if (!licence) return answer('NOT_FOUND');
    const { activation, seatsUsed } = await this.seats.validationView(licence, input.fingerprint);
    const summary = await this.licences.summary(licence, now, seatsUsed);
    if (licence.product !== input.product) return answer('WRONG_PRODUCT', summary);
    const code = licenceCode(licence, now);
    if (code !== 'VALID') return answer(code, summary);
    if (!activation) return answer('NOT_ACTIVATED', summary);
    const seen = await this.seats.touch(activation, { name: input.name, platform: input.platform, appVersion: input.appVersion }, now);
    const lease = await this.lease(licence, input.fingerprint, nonce, now);
    return answer('VALID', summary, toActivationSummary(seen), lease);
  }

  /**
   * Signed with the current Ed25519 key. `exp` is a week away, or the end of the paid period when
   * that comes first; `grace` is how long the app may keep working offline after `exp`.
   */
  private lease(licence: Licence, fingerprint: string, nonce: string | null, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    const until = validUntil(licence);
    const exp = Math.min(iat + LEASE_DAYS * DAY_S, until ? Math.floor(until.getTime() / 1000) : Infinity);
    const product = licence.product as ProductSlug;
    const payload: LeasePayload = {
      sub: 'lease',
      lic: licence._id,
      prod: product,
      plan: licence.planId,
      fp: fingerprint,
      seats: licence.seats,
      nonce,
      iat,
      exp,
      grace: exp + (GRACE_DAYS[product] ?? 7) * DAY_S,
    };
    return this.signing.signLease(payload);
  }
}

function toActivationSummary(activation: LicenceActivation): ActivationSummary {
  return {
    id: activation.fingerprint,
    name: activation.name,
    platform: activation.platform,
    appVersion: activation.appVersion,
    activatedAt: activation.activatedAt.toISOString(),
    lastSeenAt: activation.lastSeenAt.toISOString(),
  };
}
