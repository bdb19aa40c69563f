import { Body, Controller, Get, Header, HttpCode, Param, Patch, Post } from '@nestjs/common';
import type { SessionUser } from '../../lib/api/auth.js';
import type { AdminPlan, AdminPlanList, CatalogueResponse } from '../../lib/api/catalogue.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { CatalogueService } from './catalogue.service.js';
import { CreatePlanDto, PlanIdParams, UpdatePlanDto } from './dto/plan.dto.js';

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
