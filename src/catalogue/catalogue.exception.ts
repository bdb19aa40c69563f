import { DomainException } from '../common/domain.exception.js';

export enum CatalogueErrorCode {
  PlanNotFound = 'PLAN_NOT_FOUND',
  PlanExists = 'PLAN_EXISTS',
  PlanInactive = 'PLAN_INACTIVE',
}

const STATUS: Record<CatalogueErrorCode, number> = {
  [CatalogueErrorCode.PlanNotFound]: 404,
  [CatalogueErrorCode.PlanExists]: 409,
  [CatalogueErrorCode.PlanInactive]: 409,
};

export class CatalogueException extends DomainException<CatalogueErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }

  override get fields(): Record<string, string[]> | undefined {
    return this.code === CatalogueErrorCode.PlanExists ? { id: [this.message] } : undefined;
  }

  static notFound(): CatalogueException {
    return new CatalogueException(CatalogueErrorCode.PlanNotFound, 'No plan with this id');
  }

  static exists(): CatalogueException {
    return new CatalogueException(CatalogueErrorCode.PlanExists, 'A plan with this id exists already');
  }

  static inactive(): CatalogueException {
    return new CatalogueException(CatalogueErrorCode.PlanInactive, 'This plan is no longer sold');
  }
}
