import { DomainException } from '../common/domain.exception.js';

export enum NewsletterErrorCode {
  InvalidLink = 'NEWSLETTER_INVALID_LINK',
  CampaignNotFound = 'CAMPAIGN_NOT_FOUND',
  CampaignState = 'CAMPAIGN_STATE_CONFLICT',
  NoRecipients = 'CAMPAIGN_NO_RECIPIENTS',
  TestSendFailed = 'CAMPAIGN_TEST_SEND_FAILED',
}

const STATUS: Record<NewsletterErrorCode, number> = {
  // A bad, expired or used-up link is a client error about the request itself, not a missing page.
  [NewsletterErrorCode.InvalidLink]: 400,
  [NewsletterErrorCode.CampaignNotFound]: 404,
  // The action does not fit the campaign's state now (edit a campaign that is sending, pause a draft).
  [NewsletterErrorCode.CampaignState]: 409,
  [NewsletterErrorCode.NoRecipients]: 409,
  // The mail server refused or could not be reached: the gateway's fault, not the request's.
  [NewsletterErrorCode.TestSendFailed]: 502,
};

export class NewsletterException extends DomainException<NewsletterErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }
}

export const campaignNotFound = () => new NewsletterException(NewsletterErrorCode.CampaignNotFound, 'No campaign with this id');
export const campaignStateConflict = (message: string) => new NewsletterException(NewsletterErrorCode.CampaignState, message);
