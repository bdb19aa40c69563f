import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SubscriptionView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { type PlanChoice, planChoice, type RunningSubscription } from '../../../../lib/billing/plan-choice.js';
import { useDataSource } from '../../../app/data-source.js';
import { billingStatusQuery, catalogueQuery, licencesQuery, subscriptionQuery } from '../../../app/queries.js';
import { planLabel } from '../format.js';
import { CheckoutReturn, checkoutReturnOf } from './CheckoutReturn.js';
import { MorePlans } from './MorePlans.js';
import { OwnerChosenPlan } from './OwnerChosenPlan.js';
import { PlanPicker } from './PlanPicker.js';
import { PurchaseDetails } from './PurchaseDetails.js';
import { SubscriptionDetails } from './SubscriptionDetails.js';
import '../billing.css';

/** Every subscription not over yet counts, as on the server (a paused or unpaid one still covers its products). */
const running = (subscriptions: readonly SubscriptionView[]): RunningSubscription[] =>
  subscriptions.map((subscription) => ({ id: subscription.id, planId: subscription.planId || null, products: subscription.products }));

/**
 * /dashboard/user/subscription: what the person owns (subscriptions and one-off purchases, each with
 * its licences), the return from Checkout, and the plans, each offered for what it can do for them
 * (buy, add as a second subscription, switch to), or the plans to buy a first one.
 */
export function SubscriptionPanel() {
  const source = useDataSource();
  const status = useQuery(billingStatusQuery(source));
  const subscription = useQuery(subscriptionQuery(source));
  const catalogue = useQuery(catalogueQuery(source));
  // Only for the licence lines under each purchase: the page works without them.
  const licences = useQuery(licencesQuery(source));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [switching, setSwitching] = useState<{ subscriptionId: string; planId: string } | null>(null);
  const checkoutReturn = checkoutReturnOf(params);

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
  const { subscriptions, purchases, subscription: newest } = subscription.data;
  const plans = catalogue.data.plans;
  const runningNow = running(subscriptions);
  const owns = subscriptions.length > 0 || purchases.length > 0;
  const chosen = plans.find((plan) => plan.id === params.get('plan')) ?? null;
  const ownLicences = licences.data?.licences;
  // The plan chosen on the home page, by someone who already owns something: what it does for them.
  const chosenChoice = chosen && owns ? planChoice(chosen, runningNow) : null;
  const openSwitch = (choice: PlanChoice, plan: CataloguePlan) => {
    if (choice.kind === 'switch') setSwitching({ subscriptionId: choice.subscriptionId, planId: plan.id });
  };
  const closeSwitch = () => {
    setSwitching(null);
    // The choice is made (or dropped): the address no longer asks for it.
    if (params.get('plan')) void navigate({ search: '' }, { replace: true });
  };

  return (
    <div className="billing">
      {checkoutReturn?.kind === 'success' ? <CheckoutReturn sessionId={checkoutReturn.sessionId} /> : null}
      {checkoutReturn?.kind === 'cancelled' ? (
        <div className="alert alert--info billing-notice" role="status">
          Checkout was cancelled: nothing was charged.{chosen ? ` ${planLabel(chosen)} is still selected below.` : ''}
        </div>
      ) : null}
      {configured ? null : (
        <div className="alert alert--info billing-notice" role="status">
          Billing is not configured on this site, so plans cannot be bought here. An admin can record an order paid another way and grant
          you a licence.
        </div>
      )}
      {configured && chosen && chosenChoice ? (
        <OwnerChosenPlan plan={chosen} choice={chosenChoice} subscriptions={subscriptions} plans={plans} onSwitch={openSwitch} />
      ) : null}
      {owns ? (
        <section className="billing__section" aria-labelledby="billing-owned-title">
          <h2 id="billing-owned-title" className="billing__title">
            What you own
          </h2>
          {subscriptions.map((item) => (
            <SubscriptionDetails
              key={item.id}
              subscription={item}
              plans={plans}
              configured={configured}
              licences={ownLicences}
              others={runningNow.filter((other) => other.id !== item.id)}
              switchTo={switching?.subscriptionId === item.id ? switching.planId : null}
              onSwitchClosed={closeSwitch}
            />
          ))}
          {purchases.map((purchase) => (
            <PurchaseDetails key={purchase.orderId} purchase={purchase} plans={plans} licences={ownLicences} />
          ))}
        </section>
      ) : newest ? (
        // Only ended subscriptions: the last one, for its dates.
        <section className="billing__section" aria-labelledby="billing-owned-title">
          <h2 id="billing-owned-title" className="billing__title">
            Your last subscription
          </h2>
          <SubscriptionDetails subscription={newest} plans={plans} configured={configured} licences={ownLicences} />
        </section>
      ) : null}
      {configured && !owns ? <PlanPicker plans={plans} chosenId={chosen?.id ?? null} /> : null}
      {configured && owns ? <MorePlans plans={plans} running={runningNow} onSwitch={openSwitch} /> : null}
      {!owns && !configured ? <p className="billing__free">You are on the free plan.</p> : null}
    </div>
  );
}
