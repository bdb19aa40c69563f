import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { useDataSource } from '../../../app/data-source.js';
import { billingStatusQuery, catalogueQuery, subscriptionQuery } from '../../../app/queries.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useCheckout } from '../api.js';
import { formatPrice, INTERVAL_PERIOD, isRunning, planLabel } from '../format.js';
import { SubscriptionDetails } from './SubscriptionDetails.js';
import { PlanCards } from './PlanCards.js';
import '../billing.css';

/** /dashboard/user/subscription: the current subscription and what can be done with it, or the plans to buy one. */
export function SubscriptionPanel() {
  const source = useDataSource();
  const status = useQuery(billingStatusQuery(source));
  const subscription = useQuery(subscriptionQuery(source));
  const catalogue = useQuery(catalogueQuery(source));
  const [params] = useSearchParams();

  if (status.isPending || subscription.isPending || catalogue.isPending) {
    return (
      <div className="card billing-loading" aria-busy="true" aria-label="Loading your subscription">
        <div className="skeleton billing-loading__title" />
        <div className="skeleton billing-loading__line" />
        <div className="skeleton billing-loading__line" />
      </div>
    );
  }
  if (status.isError || subscription.isError || catalogue.isError) {
    return (
      <div className="alert alert--error billing-notice" role="alert">
        Could not load your subscription.{' '}
        <button
          type="button"
          className="button button--small"
          onClick={() => void Promise.all([status.refetch(), subscription.refetch(), catalogue.refetch()])}
        >
          Retry
        </button>
      </div>
    );
  }

  const configured = status.data.configured;
  const current = subscription.data.subscription;
  const plans = catalogue.data.plans;
  return (
    <div className="billing">
      {configured ? null : (
        <div className="alert alert--info billing-notice" role="status">
          Billing is not configured on this site, so plans cannot be bought here. An admin can record an order paid another way and grant
          you a licence.
        </div>
      )}
      {current ? <SubscriptionDetails subscription={current} plans={plans} configured={configured} /> : null}
      {configured && (!current || !isRunning(current.status)) ? <PlanPicker plans={plans} chosenId={params.get('plan')} /> : null}
      {!current && !configured ? <p className="billing__free">You are on the free plan.</p> : null}
    </div>
  );
}

/** No running subscription: the plans, the one chosen on the home page first in line. */
function PlanPicker({ plans, chosenId }: { plans: readonly CataloguePlan[]; chosenId: string | null }) {
  const checkout = useCheckout();
  const chosen = plans.find((plan) => plan.id === chosenId) ?? null;
  const busyId = checkout.isPending || checkout.isSuccess ? checkout.variables?.planId : undefined;
  const start = (plan: CataloguePlan) => checkout.mutate({ planId: plan.id, quantity: 1 });
  return (
    <section className="billing__section" aria-labelledby="billing-plans-title">
      <h2 id="billing-plans-title" className="billing__title">
        {chosen ? 'Your chosen plan' : 'Choose a plan'}
      </h2>
      <p className="billing__lead">
        You are on the free plan. Every paid plan includes both companion products; payment is handled by Stripe.
      </p>
      <FormAlert error={checkout.error} />
      {chosen ? (
        <div className="card billing-chosen">
          <p className="billing-chosen__text">
            <strong>{planLabel(chosen)}</strong>: {formatPrice(chosen.amountMinor, chosen.currency)} {INTERVAL_PERIOD[chosen.interval]}
          </p>
          <button type="button" className="button button--primary" disabled={busyId !== undefined} onClick={() => start(chosen)}>
            {busyId === chosen.id ? 'Opening checkout…' : 'Continue to checkout'}
          </button>
        </div>
      ) : null}
      <PlanCards
        plans={plans}
        selectedId={chosen?.id ?? null}
        action={(plan) => (
          <button
            type="button"
            className={`button button--block${plan.featured || plan.id === chosen?.id ? ' button--primary' : ''}`}
            disabled={busyId !== undefined}
            onClick={() => start(plan)}
          >
            {busyId === plan.id ? 'Opening checkout…' : `${plan.interval === 'lifetime' ? 'Buy' : 'Choose'} ${plan.name}`}
          </button>
        )}
      />
    </section>
  );
}
