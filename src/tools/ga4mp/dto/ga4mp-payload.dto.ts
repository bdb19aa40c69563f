import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsMongoId, IsObject, IsOptional, Max, Min } from 'class-validator';
import type { Ga4mpHistoryQuery, Ga4mpSendRequest, Ga4mpValidateRequest } from '../../../../lib/api/ga4mp.js';
import { GA4MP_REGIONS, type Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import { GA4MP_HISTORY_LIMIT } from '../../../../lib/tools/ga4mp/limits.js';

/**
 * `POST /api/tools/ga4mp/validate`. Only the envelope is checked here: what is inside query and body
 * is the validator's business, and any problem there is an answer (200 with validationMessages),
 * not a refused request.
 */
export class ValidatePayloadDto implements Ga4mpValidateRequest {
  @IsObject({ message: 'query must be an object such as { "measurement_id": "G-…", "api_secret": "…" }' })
  query!: Record<string, unknown>;

  @IsObject({ message: 'body must be the Measurement Protocol JSON body, an object' })
  body!: Record<string, unknown>;
}

/** `POST /api/tools/ga4mp/send`. */
export class SendPayloadDto extends ValidatePayloadDto implements Ga4mpSendRequest {
  /** true: GA4's validation server (`/debug/mp/collect`), nothing is recorded in reports. */
  @IsBoolean({ message: 'debug must be true or false' })
  debug!: boolean;

  @IsIn(GA4MP_REGIONS, { message: `region must be one of: ${GA4MP_REGIONS.join(', ')}` })
  region!: Ga4mpRegion;

  /** Send even when local validation reports problems (to see what GA4 itself says). */
  @IsOptional()
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;
}

export class HistoryQueryDto implements Ga4mpHistoryQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be 1 or more' })
  @Max(1000, { message: 'page must be 1000 or less' })
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be a whole number' })
  @Min(1, { message: `pageSize must be between 1 and ${GA4MP_HISTORY_LIMIT}` })
  @Max(GA4MP_HISTORY_LIMIT, { message: `pageSize must be between 1 and ${GA4MP_HISTORY_LIMIT}` })
  pageSize: number = 10;
}

/** A malformed id is a 400; a well-formed id that is not the user's is a 404. */
export class HistoryIdParams {
  @IsMongoId({ message: 'id must be a 24-character hexadecimal history id' })
  id!: string;
}
