import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SubscriptionView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { type PlanChoice, planChoice, type RunningSubscription } from '../../../../lib/billing/plan-choice.js';
import { coversAll, productsText } from '../../../../lib/billing/plan-copy.js';
import { useDataSource } from '../../../app/data-source.js';
import { billingStatusQuery, catalogueQuery, licencesQuery, subscriptionQuery } from '../../../app/queries.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useCheckout } from '../api.js';
import { formatPrice, INTERVAL_PERIOD, planLabel } from '../format.js';
import { CheckoutReturn, checkoutReturnOf } from './CheckoutReturn.js';
import { PlanCards } from './PlanCards.js';
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
        <ChosenForOwner plan={chosen} choice={chosenChoice} subscriptions={subscriptions} plans={plans} onSwitch={openSwitch} />
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

/** The lead above the plans, from the catalogue: "both companion products" only when every plan covers both. */
function plansLead(plans: readonly CataloguePlan[]): string {
  const every = plans.length > 0 && plans.every((plan) => coversAll(plan.products));
  return every
    ? 'Every plan includes both companion products; payment is handled by Stripe.'
    : 'Each plan names the products it covers; payment is handled by Stripe.';
}

/** Nothing owned yet: the plans, the one chosen on the home page first in line. */
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
      <p className="billing__lead">You are on the free plan. {plansLead(plans)}</p>
      <FormAlert error={checkout.error} />
      {chosen ? (
        <div className="card billing-chosen">
          <p className="billing-chosen__text">
            <strong>{planLabel(chosen)}</strong>: {formatPrice(chosen.amountMinor, chosen.currency)} {INTERVAL_PERIOD[chosen.interval]}
            <span className="billing-chosen__covers">{productsText(chosen.products)}</span>
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

/**
 * A plan chosen on the home page by someone who owns something: never silently ignored. Bought (a
 * one-off, or a subscription for a product they do not have yet), switched to (it covers what one
 * of their subscriptions covers), or said plainly why not.
 */
function ChosenForOwner({
  plan,
  choice,
  subscriptions,
  plans,
  onSwitch,
}: {
  plan: CataloguePlan;
  choice: PlanChoice;
  subscriptions: readonly SubscriptionView[];
  plans: readonly CataloguePlan[];
  onSwitch: (choice: PlanChoice, plan: CataloguePlan) => void;
}) {
  const checkout = useCheckout();
  const busy = checkout.isPending || checkout.isSuccess;
  const nameOf = (subscriptionId: string) => {
    const subscription = subscriptions.find((item) => item.id === subscriptionId);
    const current = plans.find((item) => item.id === subscription?.planId);
    return current ? planLabel(current) : 'your subscription';
  };
  let text: string;
  let action: ReactNode = null;
  if (choice.kind === 'buy') {
    text =
      plan.interval === 'lifetime'
        ? `${planLabel(plan)} is a one-off purchase with licences of its own, on top of what you own.`
        : `${planLabel(plan)} covers ${productsText(plan.products)}, which none of your subscriptions covers: it is a second subscription, billed on its own.`;
    action = (
      <button
        type="button"
        className="button button--primary"
        disabled={busy}
        onClick={() => checkout.mutate({ planId: plan.id, quantity: 1 })}
      >
        {busy ? 'Opening checkout…' : plan.interval === 'lifetime' ? `Buy ${plan.name}` : `Add ${plan.name}`}
      </button>
    );
  } else if (choice.kind === 'switch') {
    text = `You already have ${productsText(plan.products.filter((product) => subscriptions.find((item) => item.id === choice.subscriptionId)?.products.includes(product)))} through ${nameOf(choice.subscriptionId)}. Switch that subscription to ${planLabel(plan)} rather than paying twice: you see what it costs before confirming.`;
    action = (
      <button type="button" className="button button--primary" onClick={() => onSwitch(choice, plan)}>
        Switch to {plan.name}
      </button>
    );
  } else if (choice.kind === 'current') {
    text = `${planLabel(plan)} is your current plan: there is nothing to buy.`;
  } else {
    text = `${planLabel(plan)} covers products of more than one of your subscriptions. Cancel one of them at the end of its period first, then switch the other to ${plan.name}.`;
  }
  return (
    <section className="card billing-chosen billing-chosen--owner" aria-labelledby="billing-chosen-title">
      <div className="billing-chosen__body">
        <h2 id="billing-chosen-title" className="billing__title">
          Your chosen plan: {planLabel(plan)}
        </h2>
        <p className="billing-chosen__text">
          {formatPrice(plan.amountMinor, plan.currency)} {INTERVAL_PERIOD[plan.interval]}. {text}
        </p>
        <FormAlert error={checkout.error} />
      </div>
      {action}
    </section>
  );
}

/** For someone who owns something: every plan, each with what it would do for them. */
function MorePlans({
  plans,
  running: runningNow,
  onSwitch,
}: {
  plans: readonly CataloguePlan[];
  running: readonly RunningSubscription[];
  onSwitch: (choice: PlanChoice, plan: CataloguePlan) => void;
}) {
  const checkout = useCheckout();
  const busyId = checkout.isPending || checkout.isSuccess ? checkout.variables?.planId : undefined;
  return (
    <details className="billing-more">
      <summary className="billing-more__summary">Other plans</summary>
      <p className="billing__lead">
        A subscription for a product you do not have yet is billed on its own; a plan covering what a subscription of yours covers replaces
        its plan; a one-off plan adds licences of its own.
      </p>
      <FormAlert error={checkout.error} />
      <PlanCards
        plans={plans}
        headingLevel="h3"
        action={(plan) => {
          const choice = planChoice(plan, runningNow);
          if (choice.kind === 'current') {
            return (
              <button type="button" className="button button--block" disabled>
                Your plan
              </button>
            );
          }
          if (choice.kind === 'switch') {
            return (
              <button type="button" className="button button--block" onClick={() => onSwitch(choice, plan)}>
                Switch to {plan.name}
              </button>
            );
          }
          if (choice.kind === 'overlap') {
            return (
              <button type="button" className="button button--block" disabled>
                Covered by your subscriptions
              </button>
            );
          }
          return (
            <button
              type="button"
              className="button button--block"
              disabled={busyId !== undefined}
              onClick={() => checkout.mutate({ planId: plan.id, quantity: 1 })}
            >
              {busyId === plan.id ? 'Opening checkout…' : `${plan.interval === 'lifetime' ? 'Buy' : 'Add'} ${plan.name}`}
            </button>
          );
        }}
      />
    </details>
  );
}
