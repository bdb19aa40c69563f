import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChangePlanRequest,
  CheckoutProgress,
  CheckoutRequest,
  CheckoutResponse,
  PlanChangePreview,
  PortalRequest,
  RedirectResponse,
  SubscriptionChangeResponse,
  SubscriptionTargetRequest,
} from '../../../lib/api/billing.js';
import { api } from '../../app/api-client.js';
import { LICENCES_KEY, ORDERS_KEY, SUBSCRIPTION_KEY } from '../../app/queries.js';

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

/** What the person owns changed: the pages that show it ask again. */
export function useRefreshHoldings() {
  const queryClient = useQueryClient();
  return () => Promise.all([SUBSCRIPTION_KEY, LICENCES_KEY, ORDERS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * Stripe's answer to a change is applied by the server before it answers, so the page shows the
 * change at once: the holdings are read again now (no waiting for the webhook).
 */
function useSubscriptionChange<T>(request: (body: T) => Promise<SubscriptionChangeResponse>) {
  const refresh = useRefreshHoldings();
  return useMutation({ mutationFn: request, onSuccess: () => refresh() });
}

export const useCancelAtPeriodEnd = () =>
  useSubscriptionChange<SubscriptionTargetRequest>((body) =>
    api<SubscriptionChangeResponse>('/api/billing/subscription/cancel', { method: 'POST', body }),
  );

export const useResume = () =>
  useSubscriptionChange<SubscriptionTargetRequest>((body) =>
    api<SubscriptionChangeResponse>('/api/billing/subscription/resume', { method: 'POST', body }),
  );

export const useChangePlan = () =>
  useSubscriptionChange<ChangePlanRequest>((body) =>
    api<SubscriptionChangeResponse>('/api/billing/subscription/plan', { method: 'POST', body }),
  );

/** Stripe's preview of a plan change (prorations and the next invoice); fresh each time the dialog asks. */
export const planPreviewQuery = (request: { planId: string; subscriptionId: string; quantity: number }) =>
  queryOptions({
    queryKey: ['billing', 'plan-preview', request.subscriptionId, request.planId, request.quantity] as const,
    queryFn: ({ signal }) =>
      api<PlanChangePreview>(
        `/api/billing/subscription/plan-preview?${new URLSearchParams({
          planId: request.planId,
          subscriptionId: request.subscriptionId,
          quantity: String(request.quantity),
        })}`,
        { signal },
      ),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** The success page asks the server to check the session with Stripe (and fulfil it, if the webhook has not). */
export function useConfirmCheckout() {
  return useMutation({
    mutationFn: (sessionId: string) => api<CheckoutProgress>('/api/billing/checkout/confirm', { method: 'POST', body: { sessionId } }),
  });
}

export const CHECKOUT_PROGRESS_KEY = ['billing', 'checkout-progress'] as const;

/** Where the purchase stands; the page polls it until the licences are active. */
export const checkoutProgressQuery = (sessionId: string) =>
  queryOptions({
    queryKey: [...CHECKOUT_PROGRESS_KEY, sessionId] as const,
    queryFn: ({ signal }) => api<CheckoutProgress>(`/api/billing/checkout/progress?${new URLSearchParams({ sessionId })}`, { signal }),
    staleTime: 0,
    retry: 2,
  });
