import { DomainException } from '../common/domain.exception.js';

export enum SettingsErrorCode {
  DuplicateRuleSource = 'DUPLICATE_RULE_SOURCE',
  /** Two tiers or two sponsors share an id, or a sponsor names a tier that is not in the list. */
  InvalidSponsors = 'INVALID_SPONSORS',
  /** Not a PNG, JPEG or WebP image, or larger than the cap. SVG is refused: it can carry scripts. */
  BadSponsorLogo = 'BAD_SPONSOR_LOGO',
}

const STATUS: Record<SettingsErrorCode, number> = {
  [SettingsErrorCode.DuplicateRuleSource]: 400,
  [SettingsErrorCode.InvalidSponsors]: 400,
  [SettingsErrorCode.BadSponsorLogo]: 415,
};

export class SettingsException extends DomainException<SettingsErrorCode> {
  constructor(
    code: SettingsErrorCode,
    message: string,
    /** The request field the refusal is about (`sponsors.2.tierId`), shown beside it by the form. */
    private readonly field?: string,
  ) {
    super(code, message);
  }

  get status(): number {
    return STATUS[this.code];
  }

  override get fields(): Record<string, string[]> | undefined {
    return this.field ? { [this.field]: [this.message] } : undefined;
  }
}
