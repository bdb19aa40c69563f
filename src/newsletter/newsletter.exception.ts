import { DomainException } from '../common/domain.exception.js';

export enum NewsletterErrorCode {
  InvalidLink = 'NEWSLETTER_INVALID_LINK',
}

const STATUS: Record<NewsletterErrorCode, number> = {
  // A bad, expired or used-up link is a client error about the request itself, not a missing page.
  [NewsletterErrorCode.InvalidLink]: 400,
};

export class NewsletterException extends DomainException<NewsletterErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }
}
