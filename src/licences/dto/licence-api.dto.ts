import { IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import type { LicenceApiRequest } from '../../../lib/api/licences.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../lib/licences/key.js';

/** Absent is fine; null is not (a client sending null has a bug worth a 400, not a stored null). */
const Optional = () => ValidateIf((_object, value) => value !== undefined);

/** Printable text without control or bidi-override characters (it is shown in the dashboard). */
const PLAIN_TEXT = /^[^\p{Cc}\u202a-\u202e\u2066-\u2069]*$/u;

/**
 * Body of activate, validate and deactivate. A key with a typo is not a bad request (the answer
 * is `NOT_FOUND`, as for any unknown key); a key that is not even text is.
 */
export class LicenceApiRequestDto implements LicenceApiRequest {
  @IsString({ message: 'key must be a licence key' })
  @MaxLength(64, { message: 'key must be at most 64 characters' })
  key!: string;

  @IsIn(PRODUCT_SLUGS, { message: `product must be one of ${PRODUCT_SLUGS.join(', ')}` })
  product!: ProductSlug;

  @IsString({ message: 'fingerprint must be a SHA-256 hash: 64 lowercase hexadecimal characters' })
  @Matches(/^[0-9a-f]{64}$/, { message: 'fingerprint must be a SHA-256 hash: 64 lowercase hexadecimal characters' })
  fingerprint!: string;

  @Optional()
  @IsString({ message: 'nonce must be text' })
  @Matches(/^[\w-]{1,128}$/, { message: 'nonce must be 1 to 128 letters, digits, - or _' })
  nonce?: string;

  @Optional()
  @IsString({ message: 'name must be text' })
  @MaxLength(100, { message: 'name must be at most 100 characters' })
  @Matches(PLAIN_TEXT, { message: 'name cannot contain control characters or text-direction marks' })
  name?: string;

  @Optional()
  @IsString({ message: 'platform must be text' })
  @MaxLength(40, { message: 'platform must be at most 40 characters' })
  @Matches(PLAIN_TEXT, { message: 'platform cannot contain control characters or text-direction marks' })
  platform?: string;

  @Optional()
  @IsString({ message: 'appVersion must be text' })
  @MaxLength(40, { message: 'appVersion must be at most 40 characters' })
  @Matches(PLAIN_TEXT, { message: 'appVersion cannot contain control characters or text-direction marks' })
  appVersion?: string;
}
