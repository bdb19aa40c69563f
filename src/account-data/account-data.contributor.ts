import { DiscoveryService } from '@nestjs/core';

/**
 * The order in which an account is deleted. A phase starts only when every part of the phases
 * before it has succeeded, so a failure half-way always leaves a state that a retry finishes:
 *
 * 1. `files`: files in external storage (S3 or GridFS). Storage is the part most likely to be
 *    unavailable, and when it is, nothing has changed yet: the request answers 503, the person is
 *    still signed in and simply tries again.
 * 2. `sign-in`: whatever lets the person in (sessions, e-mail and reset tokens, provider links),
 *    so that signing in stops before the data behind it goes.
 * 3. `data`: everything else a module keeps about the person (tool history; later orders,
 *    licences, newsletter subscriptions).
 * 4. `audit-log`: entries about the person are anonymised, once nothing else of theirs is left.
 * 5. `account`: the user record itself, last: while it exists, a retry can still find the account
 *    and finish the job.
 */
export const ACCOUNT_DATA_PHASES = ['files', 'sign-in', 'data', 'audit-log', 'account'] as const;
export type AccountDataPhase = (typeof ACCOUNT_DATA_PHASES)[number];

/** Top-level keys of "export my data" (plain JSON values, no secrets); nested objects of several parts merge. */
export type AccountDataExport = Record<string, unknown>;

/** A module's share of a person's data, for "export my data" and "delete my account". */
export interface AccountDataContributor {
  /** This module's part of the export; `{}` when it keeps nothing the person should get back. */
  exportFor(userId: string): Promise<AccountDataExport>;
  /** Deletes (or anonymises) what this module keeps about the person. Idempotent: a retry runs it again. */
  deleteFor(userId: string): Promise<void>;
}

export const AccountDataPartMarker = DiscoveryService.createDecorator<{ phase: AccountDataPhase }>();

/**
 * Joins a provider to the account data registry: put it on a class implementing
 * {@link AccountDataContributor} and list the class among its module's providers. Nothing else, and
 * no change to the profile module, which only asks the registry.
 */
export function AccountDataPart(phase: AccountDataPhase) {
  return <T extends new (...args: never[]) => AccountDataContributor>(target: T): void => {
    AccountDataPartMarker({ phase })(target);
  };
}
