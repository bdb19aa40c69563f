import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { type PlanChoice, planChoice, type RunningSubscription } from '../../../../lib/billing/plan-choice.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useCheckout } from '../api.js';
import { PlanCards } from './PlanCards.js';

/** For someone who owns something: every plan, each with what it would do for them. */
export function MorePlans({
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
