import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery, subscriptionQuery } from '../../../app/queries.js';
import { AppLink } from '../../../components/AppLink.js';
import { planLabel, PURCHASE_STATE, subscriptionStatus } from '../format.js';
import { StatusBadge } from './StatusBadge.js';
import '../billing.css';

/** The lounge's lines about what the person owns: each subscription and one-off purchase with its state, or the free plan. */
export function SubscriptionGlance() {
  const id = useId();
  const source = useDataSource();
  const holdings = useQuery(subscriptionQuery(source));
  const catalogue = useQuery(catalogueQuery(source));
  const nameOf = (planId: string) => {
    const plan = catalogue.data?.plans.find((candidate) => candidate.id === planId);
    return plan ? planLabel(plan) : planId;
  };
  const subscriptions = holdings.data?.subscriptions ?? [];
  const purchases = holdings.data?.purchases ?? [];
  const owns = subscriptions.length + purchases.length > 0;
  return (
    <section className="card billing-glance" aria-labelledby={`${id}-title`}>
      <div className="billing-glance__text">
        <h2 id={`${id}-title`} className="billing-glance__title">
          Your plan
        </h2>
        {holdings.isPending ? (
          <div className="skeleton billing-glance__skeleton" aria-busy="true" aria-label="Loading your plan" />
        ) : holdings.isError ? (
          <p className="billing-glance__line">Could not load your plan.</p>
        ) : owns ? (
          <ul className="billing-glance__list">
            {subscriptions.map((subscription) => {
              const status = subscriptionStatus(subscription);
              return (
                <li key={subscription.id} className="billing-glance__line">
                  <span>{nameOf(subscription.planId)}</span> <StatusBadge label={status.label} tone={status.tone} />
                </li>
              );
            })}
            {purchases.map((purchase) => (
              <li key={purchase.orderId} className="billing-glance__line">
                <span>{nameOf(purchase.planId)}</span>{' '}
                <StatusBadge label={PURCHASE_STATE[purchase.state].label} tone={PURCHASE_STATE[purchase.state].tone} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="billing-glance__line">Free plan</p>
        )}
      </div>
      <AppLink to="/dashboard/user/subscription" className="button button--small">
        {subscriptions.length ? 'Manage subscription' : owns ? 'Your purchases' : 'See plans'}
      </AppLink>
    </section>
  );
}
