import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import { hash, parseOptions, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB memory, 2 passes, 1 lane. argon2id is the library default. */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A well-formed hash of a random password: verifying against it costs the same as a real check. */
const TIMING_DECOY_PASSWORD = 'decoy-password-that-never-matches-anything';

/**
 * How many hashes may run at once. argon2 runs on libuv's thread pool (4 threads); on a small
 * machine four concurrent hashes take every core and starve the event loop, so health checks and
 * every other request slow down under a sign-in burst. One core is always left to the event loop.
 */
export const MAX_CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

@Injectable()
export class PasswordHasher {
  private decoyHash: Promise<string> | null = null;
  private readonly slots = new Semaphore(MAX_CONCURRENT_HASHES);

  hash(password: string): Promise<string> {
    return this.slots.run(() => hash(password, ARGON2_PARAMS));
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await this.slots.run(() => verify(passwordHash, password));
    } catch {
      return false;
    }
  }

  /** True when a stored hash was made with weaker parameters than today's: rehash it at sign-in. */
  needsRehash(passwordHash: string): boolean {
    try {
      const used = parseOptions(passwordHash);
      return (
        used.algorithm !== 2 /* argon2id */ ||
        used.memoryCost < ARGON2_PARAMS.memoryCost ||
        used.timeCost < ARGON2_PARAMS.timeCost ||
        used.parallelism < ARGON2_PARAMS.parallelism
      );
    } catch {
      return true;
    }
  }

  /** Burns one verification's worth of time so an unknown e-mail answers as slowly as a known one. */
  async verifyDecoy(password: string): Promise<void> {
    this.decoyHash ??= this.hash(TIMING_DECOY_PASSWORD);
    await this.verify(await this.decoyHash, password);
  }
}
