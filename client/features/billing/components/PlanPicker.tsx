import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { coversAll, productsText } from '../../../../lib/billing/plan-copy.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useCheckout } from '../api.js';
import { formatPrice, INTERVAL_PERIOD, planLabel } from '../format.js';
import { PlanCards } from './PlanCards.js';

/** The lead above the plans, from the catalogue: "both companion products" only when every plan covers both. */
function plansLead(plans: readonly CataloguePlan[]): string {
  const every = plans.length > 0 && plans.every((plan) => coversAll(plan.products));
  return every
    ? 'Every plan includes both companion products; payment is handled by Stripe.'
    : 'Each plan names the products it covers; payment is handled by Stripe.';
}

/** Nothing owned yet: the plans, the one chosen on the home page first in line. */
export function PlanPicker({ plans, chosenId }: { plans: readonly CataloguePlan[]; chosenId: string | null }) {
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
