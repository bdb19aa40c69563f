import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { chosenPlanId } from '../../../../lib/catalogue/chosen-plan.js';
import { planLabel, planPriceText, productsText, seatsText } from '../../../../lib/catalogue/plan-text.js';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery } from '../../../app/queries.js';
import '../auth.css';

/**
 * The plan a visitor chose on the pricing before signing up, named on the register and sign-in
 * screens from the catalogue (prefetched by the route when the target names a plan): its name,
 * price and period, seats and products, and what happens next. Nothing when the target names no
 * plan, or one that is not on sale.
 */
export function ChosenPlan({ redirect, next }: { redirect: string | null; next: string }) {
  const id = useId();
  const planId = chosenPlanId(redirect);
  const catalogue = useQuery({ ...catalogueQuery(useDataSource()), enabled: planId !== null });
  const plan = planId ? catalogue.data?.plans.find((candidate) => candidate.id === planId) : undefined;
  if (!plan) return null;
  return (
    <section className="auth-plan" aria-labelledby={`${id}-title`} data-plan={plan.id}>
      <h2 id={`${id}-title`} className="auth-plan__title">
        Your chosen plan
      </h2>
      <p className="auth-plan__name">
        <strong>{planLabel(plan)}</strong>: {planPriceText(plan)}
      </p>
      <p className="auth-plan__facts">
        {seatsText(plan.seats)} · {productsText(plan.products)}
        {plan.trialDays > 0 ? ` · ${plan.trialDays}-day free trial` : ''}
      </p>
      <p className="auth-plan__next">{next}</p>
    </section>
  );
}
