import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import type { LinkerDecodeRequest, LinkerEncodeRequest } from '../../../../lib/api/linker.js';
import type { LinkerBrowser } from '../../../../lib/tools/linker/fingerprint.js';
import {
  cookiesProblem,
  MAX_LANGUAGE,
  MAX_TIMEZONE_OFFSET,
  MAX_USER_AGENT,
  MIN_TIMEZONE_OFFSET,
  parseTime,
  TIME_MESSAGE,
  urlProblem,
} from '../../../../lib/tools/linker/inputs.js';

@ValidatorConstraint({ name: 'linkerTime' })
class TimeConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return parseTime(value) !== undefined;
  }
  defaultMessage() {
    return TIME_MESSAGE;
  }
}

@ValidatorConstraint({ name: 'linkerCookies' })
class CookiesConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return cookiesProblem(value) === undefined;
  }
  defaultMessage(args: ValidationArguments) {
    return cookiesProblem(args.value) ?? 'cookies are not valid';
  }
}

@ValidatorConstraint({ name: 'linkerUrl' })
class UrlConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return urlProblem(value) === undefined;
  }
  defaultMessage(args: ValidationArguments) {
    return urlProblem(args.value) ?? 'url is not valid';
  }
}

const BROWSER_MESSAGE = 'browser must be an object with userAgent, timezoneOffset and language';

/** The browser facts gtag.js puts into the fingerprint. */
export class LinkerBrowserDto implements LinkerBrowser {
  @IsString({ message: 'userAgent must be text' })
  @MaxLength(MAX_USER_AGENT, { message: `userAgent must be at most ${MAX_USER_AGENT} characters` })
  userAgent!: string;

  @IsInt({ message: 'timezoneOffset must be whole minutes, as Date.getTimezoneOffset() returns' })
  @Min(MIN_TIMEZONE_OFFSET, { message: `timezoneOffset must be between ${MIN_TIMEZONE_OFFSET} and ${MAX_TIMEZONE_OFFSET}` })
  @Max(MAX_TIMEZONE_OFFSET, { message: `timezoneOffset must be between ${MIN_TIMEZONE_OFFSET} and ${MAX_TIMEZONE_OFFSET}` })
  timezoneOffset!: number;

  @IsString({ message: 'language must be text' })
  @MaxLength(MAX_LANGUAGE, { message: `language must be at most ${MAX_LANGUAGE} characters` })
  language!: string;
}

export class DecodeLinkerDto implements LinkerDecodeRequest {
  @IsString({ message: 'input must be a _gl value or a URL' })
  @IsNotEmpty({ message: 'Enter a _gl value or a URL' })
  @MaxLength(16_384, { message: 'input must be at most 16384 characters' })
  input!: string;

  /** With a browser, the fingerprint is verified against it. */
  @IsOptional()
  @IsObject({ message: BROWSER_MESSAGE })
  @ValidateNested()
  @Type(() => LinkerBrowserDto)
  browser?: LinkerBrowserDto;

  /** The instant to verify at; the server's clock when absent. */
  @IsOptional()
  @Validate(TimeConstraint)
  time?: number | string;
}

export class EncodeLinkerDto implements LinkerEncodeRequest {
  /** Cookie names and values, in link order: an object, or a list of `{ key, value }`. */
  @Validate(CookiesConstraint)
  cookies!: Record<string, string> | { key: string; value: string }[];

  @IsObject({ message: BROWSER_MESSAGE })
  @ValidateNested()
  @Type(() => LinkerBrowserDto)
  browser!: LinkerBrowserDto;

  @IsOptional()
  @Validate(TimeConstraint)
  time?: number | string;

  @IsOptional()
  @Validate(UrlConstraint)
  url?: string;

  @IsOptional()
  @IsIn(['query', 'fragment'], { message: 'placement must be query or fragment' })
  placement?: 'query' | 'fragment';

  /** Strip the `GA1.1.` / `GS2.1.` / `1.1.` prefixes gtag does not send (default true). */
  @IsOptional()
  @IsBoolean({ message: 'normalize must be true or false' })
  normalize?: boolean;
}
