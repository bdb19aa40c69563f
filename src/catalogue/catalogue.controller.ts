import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import type { AdminPlan, AdminPlanList, AdminProductList, CatalogueProduct, CatalogueResponse } from '../../lib/api/catalogue.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { CatalogueService } from './catalogue.service.js';
import { CreatePlanDto, PlanIdParams, UpdatePlanDto } from './dto/plan.dto.js';
import { ProductSlugParams, UpdateProductDto } from './dto/product.dto.js';

@Controller('api/catalogue')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  /** Public and the same for everybody: cacheable for a minute (admin edits show up within it). */
  @Public()
  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  get(): Promise<CatalogueResponse> {
    return this.catalogue.catalogue();
  }
}

@Roles('admin')
@Controller('api/admin/catalogue/plans')
export class AdminCatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(): Promise<AdminPlanList> {
    return this.catalogue.list();
  }

  @Post()
  create(@CurrentUser() actor: SessionUser, @Body() body: CreatePlanDto): Promise<AdminPlan> {
    return this.catalogue.create(actor, body);
  }

  @Patch(':id')
  update(@CurrentUser() actor: SessionUser, @Param() params: PlanIdParams, @Body() body: UpdatePlanDto): Promise<AdminPlan> {
    return this.catalogue.update(actor, params.id, body);
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  deactivate(@CurrentUser() actor: SessionUser, @Param() params: PlanIdParams): Promise<AdminPlan> {
    return this.catalogue.deactivate(actor, params.id);
  }
}

/** The two companion products' settings (their names and prefixes are configuration, not editable). */
@Roles('admin')
@Controller('api/admin/catalogue/products')
export class AdminProductsController {
  constructor(private readonly catalogue: CatalogueService) {}

  /** Not the public catalogue: that one is cached for a minute, and the switches must show what is stored. */
  @Get()
  @Header('Cache-Control', 'private, no-store')
  list(): Promise<AdminProductList> {
    return this.catalogue.listProducts();
  }

  @Put(':slug')
  update(@CurrentUser() actor: SessionUser, @Param() params: ProductSlugParams, @Body() body: UpdateProductDto): Promise<CatalogueProduct> {
    return this.catalogue.setDownloadsFree(actor, params.slug, body.downloadsFree);
  }
}
