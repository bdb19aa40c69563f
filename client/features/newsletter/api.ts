import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import type { AdminSubscriberList, AdminSubscriberQuery, MessageAnswer, SubscribeRequest } from '../../../lib/api/newsletter.js';
import { api } from '../../app/api-client.js';

export function useSubscribe() {
  return useMutation({
    mutationFn: (body: SubscribeRequest) => api<MessageAnswer>('/api/newsletter/subscribe', { method: 'POST', body }),
  });
}

export function useConfirmSubscription() {
  return useMutation({
    mutationFn: (token: string) => api<MessageAnswer>('/api/newsletter/confirm', { method: 'POST', body: { token } }),
  });
}

/** The same URL a mailbox provider POSTs to (RFC 8058); the token is the credential. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => api<MessageAnswer>(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST' }),
  });
}

export function subscriberSearch(query: AdminSubscriberQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (query.q) search.set('q', query.q);
  if (query.state) search.set('state', query.state);
  if (query.page && query.page > 1) search.set('page', String(query.page));
  if (query.pageSize) search.set('pageSize', String(query.pageSize));
  return search;
}

export const subscribersQuery = (query: AdminSubscriberQuery) =>
  queryOptions({
    queryKey: ['admin', 'newsletter', 'subscribers', query] as const,
    queryFn: ({ signal }) =>
      api<AdminSubscriberList>(`/api/admin/newsletter/subscribers?${subscriberSearch(query).toString()}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** The CSV of what the list shows (same search and filter, every page). */
export function csvHref(query: Pick<AdminSubscriberQuery, 'q' | 'state'>): string {
  const search = subscriberSearch({ q: query.q, state: query.state });
  const text = search.toString();
  return `/api/admin/newsletter/subscribers.csv${text ? `?${text}` : ''}`;
}
