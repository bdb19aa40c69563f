/** The time analytics runs on: injectable, so tests can cross midnight (salt rotation) without waiting. */
export interface Clock {
  now(): number;
}

export const ANALYTICS_CLOCK = Symbol('ANALYTICS_CLOCK');

export const systemClock: Clock = { now: () => Date.now() };
