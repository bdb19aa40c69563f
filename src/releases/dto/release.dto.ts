import {
  IsIn,
  IsMongoId,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Validate,
  type ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  RELEASE_ARCHES,
  RELEASE_CHANNELS,
  RELEASE_FORMATS,
  RELEASE_NOTES_MAX_LENGTH,
  RELEASE_PLATFORMS,
  type ReleaseArch,
  type ReleaseChannel,
  type ReleaseFormat,
  type ReleasePlatform,
  type UploadReleaseFields,
} from '../../../lib/api/releases.js';
import { isProductSlug, PRODUCT_SLUGS, type ProductSlug } from '../../../lib/licences/key.js';
import { isSemver } from '../../../lib/releases/semver.js';
import { releaseTargetProblem } from '../../../lib/releases/targets.js';

@ValidatorConstraint({ name: 'semver' })
class SemverRule implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isSemver(value);
  }
}

/**
 * Product × platform × arch against what each product ships on (lib/releases/targets.ts), reported
 * on the field that is wrong. Only once each value is one of its enum's: otherwise that field's own
 * rule has already said what is wrong with it.
 */
@ValidatorConstraint({ name: 'releaseTarget' })
class ReleaseTargetRule implements ValidatorConstraintInterface {
  private problem(args: ValidationArguments) {
    const { product, platform, arch } = args.object as { product?: unknown; platform?: unknown; arch?: unknown };
    const known =
      isProductSlug(product) &&
      (RELEASE_PLATFORMS as readonly unknown[]).includes(platform) &&
      (RELEASE_ARCHES as readonly unknown[]).includes(arch);
    return known ? releaseTargetProblem(product, platform as ReleasePlatform, arch as ReleaseArch) : null;
  }

  validate(_value: unknown, args: ValidationArguments): boolean {
    return this.problem(args)?.field !== args.property;
  }

  defaultMessage(args: ValidationArguments): string {
    return this.problem(args)?.message ?? `${args.property} is not one the product ships on`;
  }
}

const PRODUCT_MESSAGE = `product must be one of ${PRODUCT_SLUGS.join(', ')}`;
const PLATFORM_MESSAGE = `platform must be one of ${RELEASE_PLATFORMS.join(', ')}`;
const ARCH_MESSAGE = `arch must be one of ${RELEASE_ARCHES.join(', ')}`;
const CHANNEL_MESSAGE = `channel must be one of ${RELEASE_CHANNELS.join(', ')}`;
const FORMAT_MESSAGE = `format must be one of ${RELEASE_FORMATS.join(', ')}`;

/** The text fields of an upload (multipart, so every value arrives as a string). */
export class UploadReleaseDto implements UploadReleaseFields {
  @IsIn(PRODUCT_SLUGS, { message: PRODUCT_MESSAGE })
  product!: ProductSlug;

  @IsIn(RELEASE_PLATFORMS, { message: PLATFORM_MESSAGE })
  @Validate(ReleaseTargetRule)
  platform!: ReleasePlatform;

  @IsIn(RELEASE_ARCHES, { message: ARCH_MESSAGE })
  @Validate(ReleaseTargetRule)
  arch!: ReleaseArch;

  @IsIn(RELEASE_CHANNELS, { message: CHANNEL_MESSAGE })
  channel!: ReleaseChannel;

  @Validate(SemverRule, { message: 'version must be a semantic version such as 1.4.0 or 2.0.0-beta.1' })
  version!: string;

  @IsOptional()
  @IsIn(RELEASE_FORMATS, { message: FORMAT_MESSAGE })
  format?: ReleaseFormat;

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
  @Validate(ReleaseTargetRule)
  platform!: ReleasePlatform;

  @IsIn(RELEASE_ARCHES, { message: ARCH_MESSAGE })
  @Validate(ReleaseTargetRule)
  arch!: ReleaseArch;

  @IsOptional()
  @IsIn(RELEASE_CHANNELS, { message: CHANNEL_MESSAGE })
  channel?: ReleaseChannel;

  @IsOptional()
  @Validate(SemverRule, { message: 'current must be the semantic version the app runs, such as 1.4.0' })
  current?: string;

  /** The package format the app installs (a .deb app updates from a .deb); absent: the platform's usual one. */
  @IsOptional()
  @IsIn(RELEASE_FORMATS, { message: FORMAT_MESSAGE })
  format?: ReleaseFormat;
}
