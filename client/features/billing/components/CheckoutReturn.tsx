import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CHECKOUT_SESSION_ID_PATTERN, type CheckoutProgress, type CheckoutStage } from '../../../../lib/api/billing.js';
import { productName } from '../../../../lib/billing/plan-copy.js';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery } from '../../../app/queries.js';
import { ApiError } from '../../../app/api-client.js';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { checkoutProgressQuery, useConfirmCheckout, useRefreshHoldings } from '../api.js';
import { planLabel } from '../format.js';
import '../billing.css';

/** Polled this often while the purchase is on its way; slower once it takes longer than usual. */
const POLL_MS = 1000;
const SLOW_POLL_MS = 5000;
/** After this, the page says the mail will follow, and keeps looking slowly. */
export const PATIENCE_MS = 45_000;

const DONE: ReadonlySet<CheckoutStage> = new Set(['active', 'failed']);
const LICENCES_PATH = '/dashboard/user/licenses';

/** The words and the icon of each stage; the title is what a screen reader announces. */
function describe(progress: CheckoutProgress | undefined, slow: boolean, plan: string) {
  const stage = progress?.stage ?? 'confirming';
  const count = Math.max(1, progress?.licences.length ?? 1);
  const licence = count === 1 ? 'licence' : 'licences';
  switch (stage) {
    case 'active':
      return {
        tone: 'good' as const,
        title: `Your ${licence} ${count === 1 ? 'is' : 'are'} active`,
        text: `Thank you for buying ${plan}. We e-mailed you the order confirmation with your licence ${count === 1 ? 'key' : 'keys'}.`,
      };
    case 'failed':
      return {
        tone: 'bad' as const,
        title: 'The payment did not go through',
        text: 'Nothing was charged and no licence was made. Choose the plan again to try another payment method.',
      };
    case 'processing':
      return {
        tone: 'busy' as const,
        title: 'Your payment is on its way',
        text: 'Your bank is still processing the payment. Your licence is activated as soon as it clears, and we e-mail you then; you can leave this page.',
      };
    default:
      return {
        tone: 'busy' as const,
        title: `Payment received, activating your ${licence}…`,
        text: slow
          ? 'This is taking longer than usual. You can leave this page: we e-mail you the licence key as soon as it is active.'
          : `Stripe has your payment for ${plan}. Your ${licence} ${count === 1 ? 'is' : 'are'} being made; this takes a few seconds.`,
      };
  }
}

/**
 * The return from Stripe Checkout (`?checkout=success&session_id=…`): asks the server once to
 * confirm the session with Stripe (it fulfils the purchase if the webhook has not yet), then follows
 * the purchase until its licences are active, and says what happened. Rendered on the server in its
 * first state ("activating"), so the page does not jump when it hydrates.
 */
export function CheckoutReturn({ sessionId }: { sessionId: string }) {
  const titleId = useId();
  const navigate = useNavigate();
  const location = useLocation();
  const catalogue = useQuery(catalogueQuery(useDataSource()));
  const confirm = useConfirmCheckout();
  const { mutate: confirmSession } = confirm;
  const refreshHoldings = useRefreshHoldings();
  const [slow, setSlow] = useState(false);
  const asked = useRef<string | null>(null);
  const refreshed = useRef(false);

  useEffect(() => {
    if (asked.current === sessionId) return;
    asked.current = sessionId;
    confirmSession(sessionId);
  }, [sessionId, confirmSession]);

  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), PATIENCE_MS);
    return () => window.clearTimeout(timer);
  }, [sessionId]);

  // Polled once the confirmation answered (or failed: the webhook may still do the work).
  const progress = useQuery({
    ...checkoutProgressQuery(sessionId),
    enabled: !confirm.isIdle && !confirm.isPending,
    refetchInterval: (query) => (query.state.data && DONE.has(query.state.data.stage) ? false : slow ? SLOW_POLL_MS : POLL_MS),
  });
  const current = progress.data ?? confirm.data;

  useEffect(() => {
    if (current?.stage === 'active' && !refreshed.current) {
      refreshed.current = true;
      void refreshHoldings();
    }
  }, [current?.stage, refreshHoldings]);

  const plan = catalogue.data?.plans.find((candidate) => candidate.id === current?.planId);
  const planName = plan ? planLabel(plan) : 'your plan';
  const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;
  if (notFound(confirm.error) || notFound(progress.error)) {
    return (
      <div className="alert alert--error billing-notice" role="alert">
        This page was opened with a checkout that is not yours (or no longer exists). Your purchases are listed below.
      </div>
    );
  }
  const words = describe(current, slow, planName);
  const products = current?.licences.map((licence) => licence.product) ?? [];
  const dismiss = () => void navigate(location.pathname, { replace: true });
  const stepState = (done: boolean, active: boolean) => (done ? 'done' : active ? 'current' : 'todo');
  const paid = current ? ['activating', 'active'].includes(current.stage) : false;

  return (
    <section className={`card billing-return billing-return--${words.tone}`} aria-labelledby={titleId}>
      <div className="billing-return__head">
        <span className="billing-return__icon" aria-hidden="true">
          {words.tone === 'busy' ? (
            <span className="billing-spinner" />
          ) : (
            <Icon name={words.tone === 'good' ? 'check' : 'shield'} size={22} />
          )}
        </span>
        <h2 id={titleId} className="billing-return__title">
          {words.title}
        </h2>
        {current && DONE.has(current.stage) ? (
          <button type="button" className="button button--small button--ghost billing-return__dismiss" onClick={dismiss}>
            Dismiss
          </button>
        ) : null}
      </div>
      <p className="billing-return__text" role="status">
        {words.text}
      </p>
      {words.tone !== 'bad' ? (
        <ol className="billing-steps" aria-label="Progress">
          <li data-state={stepState(paid, !paid && current?.stage !== 'processing')}>Payment received</li>
          <li data-state={stepState(current?.stage === 'active', paid && current?.stage !== 'active')}>
            {products.length && current?.stage === 'active'
              ? `${products.map(productName).join(' and ')} ${products.length === 1 ? 'licence' : 'licences'} active`
              : 'Licence activated'}
          </li>
        </ol>
      ) : null}
      {current?.stage === 'active' ? (
        <div className="billing-return__actions">
          {location.pathname === LICENCES_PATH ? null : (
            <AppLink to={LICENCES_PATH} className="button button--primary">
              See your licence keys
            </AppLink>
          )}
          {products.map((product) => (
            <AppLink key={product} to={`/dashboard/tools/${product}`} className="button">
              <Icon name="download" size={18} /> Download {productName(product)}
            </AppLink>
          ))}
        </div>
      ) : null}
      {current?.stage === 'failed' ? (
        <div className="billing-return__actions">
          <AppLink to={`/dashboard/user/subscription?plan=${encodeURIComponent(current.planId)}`} className="button button--primary">
            Choose {planName} again
          </AppLink>
        </div>
      ) : null}
    </section>
  );
}

/** The Checkout return's parameters in the page's address: `success` with a session id, or `cancelled`. */
export function checkoutReturnOf(params: URLSearchParams): { kind: 'success'; sessionId: string } | { kind: 'cancelled' } | null {
  const checkout = params.get('checkout');
  const sessionId = params.get('session_id');
  if (checkout === 'success' && sessionId && CHECKOUT_SESSION_ID_PATTERN.test(sessionId)) return { kind: 'success', sessionId };
  if (checkout === 'cancelled') return { kind: 'cancelled' };
  return null;
}
