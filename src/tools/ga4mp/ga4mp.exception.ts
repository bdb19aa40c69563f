import { DomainException } from '../../common/domain.exception.js';

export enum Ga4mpErrorCode {
  /** The payload fails local validation and the user did not ask to send it anyway. */
  PayloadInvalid = 'GA4MP_PAYLOAD_INVALID',
  /** GA4 did not answer within the transport's timeout. */
  Timeout = 'GA4MP_TIMEOUT',
  /** GA4 could not be reached (DNS, connection refused/reset, TLS). */
  Unreachable = 'GA4MP_UNREACHABLE',
  HistoryEntryNotFound = 'GA4MP_HISTORY_NOT_FOUND',
}

const STATUS: Record<Ga4mpErrorCode, number> = {
  [Ga4mpErrorCode.PayloadInvalid]: 422,
  // The upstream failed, not Hitscope: gateway statuses tell the page (and monitoring) which side broke.
  [Ga4mpErrorCode.Timeout]: 504,
  [Ga4mpErrorCode.Unreachable]: 502,
  // Another user's entry is "not found", never "forbidden": ids of other people's entries reveal nothing.
  [Ga4mpErrorCode.HistoryEntryNotFound]: 404,
};

export class Ga4mpException extends DomainException<Ga4mpErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }
}
