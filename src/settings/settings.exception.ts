import { DomainException } from '../common/domain.exception.js';

export enum SettingsErrorCode {
  DuplicateRuleSource = 'DUPLICATE_RULE_SOURCE',
}

export class SettingsException extends DomainException<SettingsErrorCode> {
  readonly status = 400;
}
