import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import {
  CAMPAIGN_BODY_MAX,
  CAMPAIGN_SUBJECT_MAX,
  type CampaignInput,
  type NewsletterSettings,
  RATE_LIMIT_MAX,
  type TestSendRequest,
} from '../../../../lib/api/newsletter-campaigns.js';
import { EmailAddress } from '../../../users/account-fields.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CampaignIdParams {
  @Matches(/^[\w-]{12}$/, { message: 'id is not a campaign id' })
  id!: string;
}

export class CampaignInputDto implements CampaignInput {
  @Transform(trim)
  @IsString({ message: 'Enter a subject' })
  @Length(1, CAMPAIGN_SUBJECT_MAX, { message: `The subject must be 1 to ${CAMPAIGN_SUBJECT_MAX} characters` })
  // A header value: a line break would start another header.
  @Matches(/^[^\r\n]*$/, { message: 'The subject must be one line' })
  subject!: string;

  @IsString({ message: 'Write the message' })
  @Length(1, CAMPAIGN_BODY_MAX, { message: `The message must be 1 to ${CAMPAIGN_BODY_MAX} characters` })
  @Matches(/\S/, { message: 'Write the message' })
  body!: string;
}

export class TestSendDto implements TestSendRequest {
  @Transform(({ value }: { value: unknown }) => (value === '' || value === null ? undefined : value))
  @IsOptional()
  @EmailAddress()
  to?: string;
}

const nullable = ({ value }: { value: unknown }) => (value === '' || value === undefined ? null : value);

/** A sending limit: a whole number in range, or null (empty in the form) for no limit. */
const SendLimit = (max: number, label: string) =>
  applyDecorators(
    Transform(nullable),
    ValidateIf((_: unknown, value: unknown) => value !== null),
    IsInt({ message: `${label} must be a whole number (or empty for no limit)` }),
    Min(1, { message: `${label} must be at least 1 (or empty for no limit)` }),
    Max(max, { message: `${label} can be at most ${max}` }),
  );

export class NewsletterSettingsDto implements NewsletterSettings {
  @Transform(trim)
  @IsString({ message: 'Enter the sender name' })
  @Length(1, 100, { message: 'The sender name must be 1 to 100 characters' })
  @Matches(/^[^\r\n<>"]*$/, { message: 'The sender name cannot contain line breaks, quotes or angle brackets' })
  senderName!: string;

  @EmailAddress()
  senderAddress!: string;

  @Transform(nullable)
  @ValidateIf((_: unknown, value: unknown) => value !== null)
  @EmailAddress()
  replyTo!: string | null;

  @SendLimit(RATE_LIMIT_MAX.maxPerSecond, 'Messages per second')
  maxPerSecond!: number | null;

  @SendLimit(RATE_LIMIT_MAX.maxPerHour, 'Messages per hour')
  maxPerHour!: number | null;

  @SendLimit(RATE_LIMIT_MAX.maxPerDay, 'Messages per day')
  maxPerDay!: number | null;
}
