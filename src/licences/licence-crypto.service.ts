import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretsService } from '../auth/secrets.service.js';

const VERSION = 'v1';

/**
 * The two keys that protect licence keys (and the lease signing key) at rest, both derived with
 * HKDF-SHA256 from the auth secret, with different `info` strings so neither can stand in for the
 * other. With AUTH_SECRET set in the environment a database dump holds no usable key; with the
 * generated secret (stored in `app_secrets`) the dump holds both, which is why production sets it.
 * Changing AUTH_SECRET makes the stored ciphertexts unreadable: keys are then re-issued, not lost
 * silently (decryption fails loudly).
 */
@Injectable()
export class LicenceCryptoService {
  private keys: { encryption: Buffer; lookup: Buffer } | null = null;

  constructor(private readonly secrets: SecretsService) {}

  private derived(): { encryption: Buffer; lookup: Buffer } {
    if (!this.keys) {
      const secret = Buffer.from(this.secrets.authSecret, 'utf8');
      const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'hitscope-licences', info, 32));
      this.keys = { encryption: derive('licence-key-encryption-v1'), lookup: derive('licence-key-lookup-v1') };
    }
    return this.keys;
  }

  /** HMAC-SHA256 of a normalised key: what the unique index holds and a lookup compares. */
  lookup(normalisedKey: string): string {
    return createHmac('sha256', this.derived().lookup).update(normalisedKey).digest('base64url');
  }

  /** AES-256-GCM with a random 96-bit IV; `context` (the document's id) is bound as associated data. */
  encrypt(plaintext: string | Buffer, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.derived().encryption, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  decrypt(value: string, context: string): Buffer {
    const [version, data] = value.split('.');
    if (version !== VERSION || !data) throw new Error('Unknown ciphertext format');
    const raw = Buffer.from(data, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.derived().encryption, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }
}
