import { Injectable } from '@nestjs/common';
import { ReadCache } from '../common/read-cache.js';
import type { Licence } from './schemas/licence.schema.js';
import type { LicenceActivation } from './schemas/licence-activation.schema.js';

/**
 * How long another instance may answer from what it read before a change. A lease already lets an
 * app work for a week without asking, so half a minute more before a revocation is seen elsewhere
 * changes nothing a customer or an attacker could use; this instance forgets at once what it writes.
 */
export const LICENCE_CACHE_TTL_MS = 30_000;
/** Licences (and as many activation lists) kept per process: about 10 MB at most. */
const MAX_ENTRIES = 10_000;
/** A person's own licences, as the dashboard shows them: what another instance may show for this long after a change. */
export const OWNED_LICENCES_TTL_MS = 5_000;

/**
 * What `validate`, the call every app start makes, reads: the licence by its key's lookup hash and
 * the active devices of a licence; and the licences a person owns, which every dashboard page with
 * the licences glance reads. Writers in this module forget what they change (licences wholesale,
 * since they change rarely; activations per licence).
 */
@Injectable()
export class LicenceReadCache {
  private readonly licences = new ReadCache<Licence>(LICENCE_CACHE_TTL_MS, MAX_ENTRIES);
  private readonly activations = new ReadCache<LicenceActivation[]>(LICENCE_CACHE_TTL_MS, MAX_ENTRIES);
  private readonly owned = new ReadCache<readonly Licence[]>(OWNED_LICENCES_TTL_MS, MAX_ENTRIES);

  licence(keyLookup: string, load: () => Promise<Licence | null>): Promise<Licence | null> {
    return this.licences.get(keyLookup, load);
  }

  forgetLicences(): void {
    this.licences.clear();
    this.owned.clear();
  }

  /** The licences `userId` owns (an empty list is kept too): read-only, shared between callers. */
  async ownedBy(userId: string, load: () => Promise<Licence[]>): Promise<readonly Licence[]> {
    return (await this.owned.get(userId, load)) ?? [];
  }

  async activeActivations(licenceId: string, load: () => Promise<LicenceActivation[]>): Promise<LicenceActivation[]> {
    return (await this.activations.get(licenceId, load)) ?? [];
  }

  forgetActivations(licenceIds: string | string[]): void {
    for (const id of typeof licenceIds === 'string' ? [licenceIds] : licenceIds) this.activations.forget(id);
  }
}
