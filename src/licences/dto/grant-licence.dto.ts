import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import type { GrantLicenceRequest } from '../../../lib/api/licences.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../lib/licences/key.js';

export class GrantLicenceDto implements GrantLicenceRequest {
  @IsString({ message: 'planId must be a plan slug' })
  @Matches(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: 'planId must be a plan slug (lowercase letters, digits and dashes)' })
  planId!: string;

  @IsArray({ message: 'products must be a list of products' })
  @ArrayMinSize(1, { message: 'products must name at least one product' })
  @ArrayMaxSize(PRODUCT_SLUGS.length, { message: `products must name at most ${PRODUCT_SLUGS.length} products` })
  @ArrayUnique({ message: 'products must not repeat a product' })
  @IsIn(PRODUCT_SLUGS, { each: true, message: `each product must be one of ${PRODUCT_SLUGS.join(', ')}` })
  products!: ProductSlug[];

  @IsInt({ message: 'seats must be a whole number from 1 to 1000' })
  @Min(1, { message: 'seats must be a whole number from 1 to 1000' })
  @Max(1000, { message: 'seats must be a whole number from 1 to 1000' })
  seats!: number;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expiresAt must be an ISO 8601 date' })
  expiresAt?: string | null;

  @ValidateIf((_object, value) => value !== undefined)
  @IsString({ message: 'note must be text' })
  @MaxLength(500, { message: 'note must be at most 500 characters' })
  note?: string;
}
