/** The newsletter's API shapes, shared by the server and the client. */
import { PRODUCT } from '../product.js';

export const SUBSCRIBER_STATES = ['pending', 'confirmed', 'unsubscribed', 'bounced', 'complained'] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

export const SUBSCRIPTION_SOURCES = ['home', 'register', 'profile'] as const;
export type SubscriptionSource = (typeof SUBSCRIPTION_SOURCES)[number];

/**
 * The consent text a person agrees to, versioned: the version is stored with every sign-up, so the
 * consent proof says what exactly was shown. Change the text, change the version.
 */
export const NEWSLETTER_CONSENT = {
  version: '2026-11-24',
  text: `Send me the ${PRODUCT.name} newsletter (release notes, GA4 and consent-mode changes). I can unsubscribe at any time.`,
} as const;

/** How long a confirmation link works. */
export const CONFIRM_LINK_DAYS = 7;

export interface SubscribeRequest {
  email: string;
  /** Must be true: the box the person ticked. */
  consent: boolean;
}

/** Always the same answer, whatever the address's state: nobody learns who is subscribed. */
export const SUBSCRIBE_MESSAGE = 'Check your inbox to confirm: we sent a link to that address unless it is already subscribed.';

export interface MessageAnswer {
  message: string;
}

export interface TokenRequest {
  token: string;
}

export const CONFIRMED_MESSAGE = 'Your subscription is confirmed. Thank you!';
export const UNSUBSCRIBED_MESSAGE = 'You are unsubscribed. We will not send you the newsletter again.';
export const BAD_LINK_MESSAGE = 'This link is invalid or has expired. Sign up again from the home page to get a new one.';

export interface AdminSubscriber {
  email: string;
  state: SubscriberState;
  source: SubscriptionSource;
  /** ISO dates. */
  subscribedAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  suppressed: boolean;
  consentVersion: string;
}

export interface AdminSubscriberList {
  items: AdminSubscriber[];
  total: number;
  page: number;
  pageSize: number;
  /** Every state, across the whole list (not only the filtered part). */
  counts: Record<SubscriberState, number>;
}

export interface AdminSubscriberQuery {
  q?: string;
  state?: SubscriberState;
  page?: number;
  pageSize?: number;
}

export const STATE_LABELS: Record<SubscriberState, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Complained',
};

export const SOURCE_LABELS: Record<SubscriptionSource, string> = {
  home: 'Home page',
  register: 'Registration',
  profile: 'Profile',
};
