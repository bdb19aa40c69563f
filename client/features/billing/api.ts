import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChangePlanRequest,
  CheckoutRequest,
  CheckoutResponse,
  PortalRequest,
  RedirectResponse,
  SubscriptionChangeResponse,
} from '../../../lib/api/billing.js';
import { api } from '../../app/api-client.js';
import { SUBSCRIPTION_KEY } from '../../app/queries.js';

/** Stripe Checkout: the browser leaves for Stripe's page once the order is made. */
export function useCheckout() {
  return useMutation({
    mutationFn: (body: CheckoutRequest) => api<CheckoutResponse>('/api/billing/checkout', { method: 'POST', body }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function usePortal() {
  return useMutation({
    mutationFn: (body: PortalRequest) => api<RedirectResponse>('/api/billing/portal', { method: 'POST', body }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/**
 * Stripe accepts a change and the mirror follows with its webhook: the subscription is asked for
 * again now, and once more a few seconds later, when the webhook has usually arrived.
 */
function useSubscriptionChange<T>(request: (body: T) => Promise<SubscriptionChangeResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => {
      const refresh = () => queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
      void refresh();
      window.setTimeout(() => void refresh(), 3000);
    },
  });
}

export const useCancelAtPeriodEnd = () =>
  useSubscriptionChange<void>(() => api<SubscriptionChangeResponse>('/api/billing/subscription/cancel', { method: 'POST' }));

export const useResume = () =>
  useSubscriptionChange<void>(() => api<SubscriptionChangeResponse>('/api/billing/subscription/resume', { method: 'POST' }));

export const useChangePlan = () =>
  useSubscriptionChange<ChangePlanRequest>((body) =>
    api<SubscriptionChangeResponse>('/api/billing/subscription/plan', { method: 'POST', body }),
  );
