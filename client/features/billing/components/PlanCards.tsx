import { type ReactNode, useState } from 'react';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { coverageText, coversAll, productsText } from '../../../../lib/billing/plan-copy.js';
import { Icon } from '../../../components/Icon.js';
import { SegmentedControl, type SegmentedOption } from '../../../components/SegmentedControl.js';
import { formatPrice, INTERVAL_PERIOD, seatsText } from '../format.js';
import '../billing.css';

type Recurring = 'month' | 'year';

const INTERVAL_OPTIONS: readonly SegmentedOption<Recurring>[] = [
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

interface Props {
  plans: readonly CataloguePlan[];
  /** The button or link of each card. */
  action: (plan: CataloguePlan) => ReactNode;
  /** A plan to mark (the one chosen on the home page, or the current one); its interval is shown first. */
  selectedId?: string | null;
  selectedLabel?: string;
  headingLevel?: 'h2' | 'h3';
}

/**
 * The plans on sale, one card each: the recurring ones of one interval at a time (a Monthly /
 * Yearly switch when both exist), then the one-off plans, which have no interval to switch.
 */
export function PlanCards({ plans, action, selectedId = null, selectedLabel = 'Selected', headingLevel: Heading = 'h3' }: Props) {
  const selected = plans.find((plan) => plan.id === selectedId);
  const intervals = INTERVAL_OPTIONS.filter((option) => plans.some((plan) => plan.interval === option.value));
  const [interval, setInterval] = useState<Recurring>(
    selected && selected.interval !== 'lifetime' ? selected.interval : (intervals[0]?.value ?? 'month'),
  );
  const shown = plans.filter((plan) => plan.interval === interval || plan.interval === 'lifetime');
  return (
    <div className="billing-plans">
      {intervals.length > 1 ? (
        <SegmentedControl
          label="Billing period"
          options={intervals}
          value={interval}
          onChange={setInterval}
          className="billing-plans__switch"
        />
      ) : null}
      <ul className="billing-plans__list">
        {shown.map((plan) => {
          const marked = plan.id === selectedId;
          const modifiers = [plan.featured ? ' billing-plan--featured' : '', marked ? ' billing-plan--selected' : ''].join('');
          return (
            <li key={plan.id} className={`card billing-plan${modifiers}`}>
              <div className="billing-plan__head">
                <Heading className="billing-plan__name">{plan.name}</Heading>
                {marked ? (
                  <span className="badge badge--accent">{selectedLabel}</span>
                ) : plan.featured ? (
                  <span className="badge badge--accent">Recommended</span>
                ) : null}
              </div>
              <p className="billing-plan__price">
                <span className="billing-plan__amount">{formatPrice(plan.amountMinor, plan.currency)}</span>
                <span className="billing-plan__period">{INTERVAL_PERIOD[plan.interval]}</span>
              </p>
              <p className="billing-plan__seats">
                {seatsText(plan.seats)}
                {plan.trialDays > 0 ? `, ${plan.trialDays}-day free trial` : ''}
              </p>
              <p className="billing-plan__covers">
                <span className="visually-hidden">Covers: </span>
                {coverageText(plan.products)}
                {coversAll(plan.products) ? <span className="billing-plan__covers-names">{productsText(plan.products)}</span> : null}
              </p>
              {plan.features.length ? (
                <ul className="billing-plan__features">
                  {plan.features.map((feature) => (
                    <li key={feature}>
                      <Icon name="check" size={18} />
                      <span>{feature}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="billing-plan__action">{action(plan)}</div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
