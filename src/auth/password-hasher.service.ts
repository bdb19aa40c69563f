import { Injectable } from '@nestjs/common';
import { hash, parseOptions, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB memory, 2 passes, 1 lane. argon2id is the library default. */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A well-formed hash of a random password: verifying against it costs the same as a real check. */
const TIMING_DECOY_PASSWORD = 'decoy-password-that-never-matches-anything';

@Injectable()
export class PasswordHasher {
  private decoyHash: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return hash(password, ARGON2_PARAMS);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
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
