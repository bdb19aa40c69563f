import { useQuery } from '@tanstack/react-query';
import { useDataSource, useMe } from '../../../app/data-source.js';
import { catalogueQuery } from '../../../app/queries.js';
import { AppLink } from '../../../components/AppLink.js';
import { PlanCards } from './PlanCards.js';

const SUBSCRIPTION_PATH = '/dashboard/user/subscription';

/** Where "Choose <plan>" leads: the subscription page with the plan chosen, through sign-up when signed out. */
export function choosePlanHref(planId: string, signedIn: boolean): string {
  const target = `${SUBSCRIPTION_PATH}?plan=${encodeURIComponent(planId)}`;
  return signedIn ? target : `/register?redirect=${encodeURIComponent(target)}`;
}

/** The public pricing (home page): the catalogue's active plans, rendered on the server. */
export function PricingPlans() {
  const me = useMe();
  const { data, isPending, isError, refetch } = useQuery(catalogueQuery(useDataSource()));
  if (isPending) return <div className="skeleton billing-plans__skeleton" aria-busy="true" aria-label="Loading plans" />;
  if (isError) {
    return (
      <div className="alert alert--error billing-notice" role="alert">
        The plans could not be loaded.{' '}
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (!data.plans.length) return <p className="empty-state">No plans are on sale at the moment.</p>;
  return (
    <PlanCards
      plans={data.plans}
      action={(plan) => (
        <AppLink to={choosePlanHref(plan.id, Boolean(me))} className={`button button--block${plan.featured ? ' button--primary' : ''}`}>
          {plan.interval === 'lifetime' ? 'Buy' : 'Choose'} {plan.name}
        </AppLink>
      )}
    />
  );
}
