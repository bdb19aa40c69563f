/**
 * What the overview asks the licences module (implemented by LicencesService), so it depends on
 * one question rather than on the licences' internals.
 */
export interface LicenceActivity {
  /** Device activations since `since`: events, so a device deactivated or released since still counts. */
  activationsSince(since: Date): Promise<number>;
}

/** Injection token of the {@link LicenceActivity} (provided and exported by the licences module). */
export const LICENCE_ACTIVITY = Symbol('LicenceActivity');
