import { useQuery } from '@tanstack/react-query';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery, subscriptionQuery } from '../../../app/queries.js';
import { AppLink } from '../../../components/AppLink.js';
import { isLive, planLabel, subscriptionStatus } from '../format.js';
import { StatusBadge } from './StatusBadge.js';
import '../billing.css';

/** The lounge's one line about the subscription: the plan and its status, or the free plan. */
export function SubscriptionGlance() {
  const source = useDataSource();
  const subscription = useQuery(subscriptionQuery(source));
  const catalogue = useQuery(catalogueQuery(source));
  const current = subscription.data?.subscription;
  const plan = current && catalogue.data?.plans.find((candidate) => candidate.id === current.planId);
  const status = current ? subscriptionStatus(current) : null;
  return (
    <section className="card billing-glance" aria-labelledby="billing-glance-title">
      <div className="billing-glance__text">
        <h2 id="billing-glance-title" className="billing-glance__title">
          Subscription
        </h2>
        {subscription.isPending ? (
          <div className="skeleton billing-glance__skeleton" aria-busy="true" aria-label="Loading your subscription" />
        ) : subscription.isError ? (
          <p className="billing-glance__line">Could not load your subscription.</p>
        ) : current && status && isLive(current.status) ? (
          <p className="billing-glance__line">
            <span>{plan ? planLabel(plan) : current.planId}</span> <StatusBadge label={status.label} tone={status.tone} />
          </p>
        ) : (
          <p className="billing-glance__line">Free plan</p>
        )}
      </div>
      <AppLink to="/dashboard/user/subscription" className="button button--small">
        {current && isLive(current.status) ? 'Manage subscription' : 'See plans'}
      </AppLink>
    </section>
  );
}
