import type { ReactNode } from 'react';
import type { SubscriptionView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import type { PlanChoice } from '../../../../lib/billing/plan-choice.js';
import { productsText } from '../../../../lib/billing/plan-copy.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useCheckout } from '../api.js';
import { formatPrice, INTERVAL_PERIOD, planLabel } from '../format.js';

/**
 * A plan chosen on the home page by someone who owns something: never silently ignored. Bought (a
 * one-off, or a subscription for a product they do not have yet), switched to (it covers what one
 * of their subscriptions covers), or said plainly why not.
 */
export function OwnerChosenPlan({
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
