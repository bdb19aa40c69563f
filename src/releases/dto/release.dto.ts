import {
  IsIn,
  IsMongoId,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Validate,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  RELEASE_ARCHES,
  RELEASE_CHANNELS,
  RELEASE_NOTES_MAX_LENGTH,
  RELEASE_PLATFORMS,
  type ReleaseArch,
  type ReleaseChannel,
  type ReleasePlatform,
  type UploadReleaseFields,
} from '../../../lib/api/releases.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../lib/licences/key.js';
import { isSemver } from '../../../lib/releases/semver.js';

@ValidatorConstraint({ name: 'semver' })
class SemverRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isSemver(value);
  }
}

const PRODUCT_MESSAGE = `product must be one of ${PRODUCT_SLUGS.join(', ')}`;
const PLATFORM_MESSAGE = `platform must be one of ${RELEASE_PLATFORMS.join(', ')}`;
const ARCH_MESSAGE = `arch must be one of ${RELEASE_ARCHES.join(', ')}`;
const CHANNEL_MESSAGE = `channel must be one of ${RELEASE_CHANNELS.join(', ')}`;

/** The text fields of an upload (multipart, so every value arrives as a string). */
export class UploadReleaseDto implements UploadReleaseFields {
  @IsIn(PRODUCT_SLUGS, { message: PRODUCT_MESSAGE })
  product!: ProductSlug;

  @IsIn(RELEASE_PLATFORMS, { message: PLATFORM_MESSAGE })
  platform!: ReleasePlatform;

  @IsIn(RELEASE_ARCHES, { message: ARCH_MESSAGE })
  arch!: ReleaseArch;

  @IsIn(RELEASE_CHANNELS, { message: CHANNEL_MESSAGE })
  channel!: ReleaseChannel;

  @Validate(SemverRule, { message: 'version must be a semantic version such as 1.4.0 or 2.0.0-beta.1' })
  version!: string;

  @IsOptional()
  @IsString({ message: 'notes must be text' })
  @MaxLength(RELEASE_NOTES_MAX_LENGTH, { message: `notes must be at most ${RELEASE_NOTES_MAX_LENGTH} characters` })
  notes?: string;

  @Matches(/^[1-9]\d{0,11}$/, { message: 'size must be the file size in bytes (a positive whole number)' })
  size!: string;
}

export class ReleaseIdParams {
  @IsMongoId({ message: 'id must be a release id (24 hexadecimal characters)' })
  id!: string;
}

export class LatestReleasesQuery {
  @IsIn(PRODUCT_SLUGS, { message: PRODUCT_MESSAGE })
  product!: ProductSlug;
}

export class AdminReleasesQuery {
  @IsOptional()
  @IsIn(PRODUCT_SLUGS, { message: PRODUCT_MESSAGE })
  product?: ProductSlug;
}

/** The apps' update check. */
export class UpdateCheckQuery {
  @IsIn(PRODUCT_SLUGS, { message: PRODUCT_MESSAGE })
  product!: ProductSlug;

  @IsIn(RELEASE_PLATFORMS, { message: PLATFORM_MESSAGE })
  platform!: ReleasePlatform;

  @IsIn(RELEASE_ARCHES, { message: ARCH_MESSAGE })
  arch!: ReleaseArch;

  @IsOptional()
  @IsIn(RELEASE_CHANNELS, { message: CHANNEL_MESSAGE })
  channel?: ReleaseChannel;

  @IsOptional()
  @Validate(SemverRule, { message: 'current must be the semantic version the app runs, such as 1.4.0' })
  current?: string;
}
