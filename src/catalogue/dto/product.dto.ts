import { IsBoolean, IsIn } from 'class-validator';
import type { UpdateProductRequest } from '../../../lib/api/catalogue.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../lib/product.js';

export class ProductSlugParams {
  @IsIn(PRODUCT_SLUGS, { message: `slug must be one of: ${PRODUCT_SLUGS.join(', ')}` })
  slug!: ProductSlug;
}

export class UpdateProductDto implements UpdateProductRequest {
  @IsBoolean({ message: 'downloadsFree must be true or false' })
  downloadsFree!: boolean;
}
