import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  Validate,
  ValidateNested,
  ValidatorConstraint,
} from 'class-validator';
import type { ValidationArguments, ValidatorConstraintInterface } from 'class-validator';
import {
  ANNOUNCEMENT_LINK_LABEL_MAX,
  ANNOUNCEMENT_TEXT_MAX,
  ANNOUNCEMENT_TONES,
  type AnnouncementSettings,
  type AnnouncementTone,
  type ContactSettings,
  type DismissAnnouncementRequest,
  type GeneralSettings,
  isHttpUrl,
  isSafeLinkUrl,
  PRIVACY_MARKDOWN_MAX,
  type PrivacySettings,
  type RegistrationSettings,
  SITE_NAME_MAX,
  type Sponsor,
  SPONSOR_CURRENCIES,
  SPONSOR_NAME_MAX,
  type SponsorCurrency,
  SPONSORS_MAX,
  type SponsorsSettings,
  type SponsorTier,
  TERMS_MARKDOWN_MAX,
  type TermsSettings,
  TIER_DESCRIPTION_MAX,
  TIER_NAME_MAX,
  TIER_PERK_MAX,
  TIER_PERKS_MAX,
  TIERS_MAX,
  URL_MAX,
  WITHDRAWAL_SECTION_ID,
} from '../../../lib/api/site-settings.js';
import { checkEmailAddress } from '../../../lib/accounts/email-address.js';
import { LEGAL_PLACEHOLDERS, unknownPlaceholders } from '../../../lib/legal/placeholders.js';
import { renderMarkdown } from '../../../lib/markdown/markdown.js';
import { withSectionIds } from '../../../lib/markdown/sections.js';

const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const ID_MESSAGE = 'Use 1-40 lower-case letters, digits and dashes';
/** Something visible: not only spaces. */
const VISIBLE = /\S/;

@ValidatorConstraint({ name: 'httpUrl' })
class HttpUrlConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'string' && isHttpUrl(value);
  }
  defaultMessage() {
    return 'Enter an http(s) URL such as https://example.com';
  }
}

/** A legal document may use the placeholders of lib/legal/placeholders.ts, and no others (a typo would show as is). */
@ValidatorConstraint({ name: 'knownPlaceholders' })
class KnownPlaceholdersConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value !== 'string' || unknownPlaceholders(value).length === 0;
  }
  defaultMessage(args: ValidationArguments) {
    const unknown = typeof args.value === 'string' ? unknownPlaceholders(args.value) : [];
    const known = Object.keys(LEGAL_PLACEHOLDERS).map((name) => `{{${name}}}`);
    return `Unknown placeholder ${unknown.join(', ')}: use ${known.join(', ')}`;
  }
}

/** Checkout's consent text links to /terms#withdrawal: the terms keep that section, whatever its words. */
@ValidatorConstraint({ name: 'withdrawalSection' })
class WithdrawalSectionConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value !== 'string' || withSectionIds(renderMarkdown(value)).toc.some((section) => section.id === WITHDRAWAL_SECTION_ID);
  }
  defaultMessage() {
    return `Keep the section on the right of withdrawal, headed “## … {#${WITHDRAWAL_SECTION_ID}}”: checkout links to /terms#${WITHDRAWAL_SECTION_ID}`;
  }
}

@ValidatorConstraint({ name: 'contactEmail' })
class ContactEmailConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return checkEmailAddress(value).ok;
  }
  defaultMessage(args: ValidationArguments) {
    const check = checkEmailAddress(args.value);
    return check.ok ? '' : check.message;
  }
}

/* Rules across fields of the announcement (ValidateIf would skip the type checks as well). */
const blank = (value: unknown) => typeof value !== 'string' || !VISIBLE.test(value);

@ValidatorConstraint({ name: 'textWhenEnabled' })
class TextWhenEnabledConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments) {
    return !(args.object as AnnouncementSettings).enabled || !blank(value);
  }
  defaultMessage() {
    return 'Write the announcement before switching it on';
  }
}

@ValidatorConstraint({ name: 'labelWithLink' })
class LabelWithLinkConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments) {
    return blank((args.object as AnnouncementSettings).linkUrl) || !blank(value);
  }
  defaultMessage() {
    return 'Give the link a label';
  }
}

@ValidatorConstraint({ name: 'announcementLink' })
class AnnouncementLinkConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments) {
    if (typeof value !== 'string') return false;
    if (value.trim() === '') return blank((args.object as AnnouncementSettings).linkLabel);
    return isSafeLinkUrl(value.trim());
  }
  defaultMessage(args: ValidationArguments) {
    return typeof args.value === 'string' && args.value.trim() === ''
      ? 'Add the address the label links to, or clear the label'
      : 'The link must be an http(s) URL or a path on this site such as /pricing';
  }
}

export class GeneralSettingsDto implements GeneralSettings {
  @IsString()
  @Matches(VISIBLE, { message: 'Enter a site name' })
  @MaxLength(SITE_NAME_MAX, { message: `The site name can have at most ${SITE_NAME_MAX} characters` })
  siteName!: string;
}

export class RegistrationSettingsDto implements RegistrationSettings {
  @IsBoolean({ message: 'open must be true or false' })
  open!: boolean;
}

export class AnnouncementSettingsDto implements AnnouncementSettings {
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;

  @IsString()
  @MaxLength(ANNOUNCEMENT_TEXT_MAX, { message: `The text can have at most ${ANNOUNCEMENT_TEXT_MAX} characters` })
  @Validate(TextWhenEnabledConstraint)
  text!: string;

  @IsIn(ANNOUNCEMENT_TONES, { message: 'The tone must be info or warning' })
  tone!: AnnouncementTone;

  @IsString()
  @MaxLength(ANNOUNCEMENT_LINK_LABEL_MAX, { message: `The link label can have at most ${ANNOUNCEMENT_LINK_LABEL_MAX} characters` })
  @Validate(LabelWithLinkConstraint)
  linkLabel!: string;

  @IsString()
  @MaxLength(URL_MAX)
  @Validate(AnnouncementLinkConstraint)
  linkUrl!: string;
}

export class SponsorTierDto implements SponsorTier {
  @IsString()
  @Matches(ID, { message: ID_MESSAGE })
  id!: string;

  @IsString()
  @Matches(VISIBLE, { message: 'Name the tier' })
  @MaxLength(TIER_NAME_MAX, { message: `A tier name can have at most ${TIER_NAME_MAX} characters` })
  name!: string;

  @IsInt({ message: 'The monthly amount must be a whole number of cents' })
  @Min(0, { message: 'The monthly amount cannot be negative' })
  @Max(100_000_000, { message: 'The monthly amount is too large' })
  monthlyAmount!: number;

  @IsIn(SPONSOR_CURRENCIES, { message: `The currency must be one of ${SPONSOR_CURRENCIES.join(', ')}` })
  currency!: SponsorCurrency;

  @IsString()
  @MaxLength(TIER_DESCRIPTION_MAX, { message: `The description can have at most ${TIER_DESCRIPTION_MAX} characters` })
  description!: string;

  @IsArray()
  @ArrayMaxSize(TIER_PERKS_MAX, { message: `A tier can list at most ${TIER_PERKS_MAX} perks` })
  @IsString({ each: true })
  @MinLength(1, { each: true, message: 'A perk cannot be empty' })
  @MaxLength(TIER_PERK_MAX, { each: true, message: `A perk can have at most ${TIER_PERK_MAX} characters` })
  perks!: string[];
}

export class SponsorDto implements Sponsor {
  @IsString()
  @Matches(ID, { message: ID_MESSAGE })
  id!: string;

  @IsString()
  @Matches(VISIBLE, { message: 'Name the sponsor' })
  @MaxLength(SPONSOR_NAME_MAX, { message: `A sponsor name can have at most ${SPONSOR_NAME_MAX} characters` })
  name!: string;

  @IsString()
  @MaxLength(URL_MAX)
  @Validate(HttpUrlConstraint)
  url!: string;

  @IsString()
  @Matches(ID, { message: 'Choose a tier' })
  tierId!: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,100}$/, { message: 'Upload the logo again' })
  logoId!: string | null;
}

export class SponsorsSettingsDto implements SponsorsSettings {
  @IsArray()
  @ArrayMaxSize(TIERS_MAX, { message: `At most ${TIERS_MAX} tiers` })
  @ValidateNested({ each: true })
  @Type(() => SponsorTierDto)
  tiers!: SponsorTierDto[];

  @IsArray()
  @ArrayMaxSize(SPONSORS_MAX, { message: `At most ${SPONSORS_MAX} sponsors` })
  @ValidateNested({ each: true })
  @Type(() => SponsorDto)
  sponsors!: SponsorDto[];
}

export class PrivacySettingsDto implements PrivacySettings {
  @IsString()
  @Matches(VISIBLE, { message: 'The policy cannot be empty' })
  @MaxLength(PRIVACY_MARKDOWN_MAX, { message: `The policy can have at most ${PRIVACY_MARKDOWN_MAX} characters` })
  @Validate(KnownPlaceholdersConstraint)
  markdown!: string;
}

export class TermsSettingsDto implements TermsSettings {
  @IsString()
  @Matches(VISIBLE, { message: 'The terms cannot be empty' })
  @MaxLength(TERMS_MARKDOWN_MAX, { message: `The terms can have at most ${TERMS_MARKDOWN_MAX} characters` })
  @Validate(KnownPlaceholdersConstraint)
  @Validate(WithdrawalSectionConstraint)
  markdown!: string;
}

/** The addresses are checked as account addresses are (lib/accounts/email-address.ts) and stored as typed, trimmed. */
export class ContactSettingsDto implements ContactSettings {
  @IsString()
  @Validate(ContactEmailConstraint)
  legalEmail!: string;

  @IsString()
  @Validate(ContactEmailConstraint)
  privacyEmail!: string;
}

export class DismissAnnouncementDto implements DismissAnnouncementRequest {
  @IsString()
  @Matches(/^[a-f0-9]{16}$/, { message: 'Unknown announcement version' })
  version!: string;
}
