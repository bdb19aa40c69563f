import { useQuery } from '@tanstack/react-query';
import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import type { CatalogueResponse } from '../../../../lib/api/catalogue.js';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery } from '../../../app/queries.js';
import { userBillingQuery, userLicencesQuery } from '../api.js';
import { formatMoney } from '../../../../lib/money.js';
import { formatDate, stateClass, statusLabel } from '../format.js';
import { GrantLicenceForm, ManualOrderForm } from './CommerceForms.js';
import { LicenceList } from './LicenceList.js';
import { PanelSection } from './PanelSection.js';
import { RetryAlert } from './RetryAlert.js';
import '../admin-users.css';

/** A plan's name from the catalogue; its id when the plan is no longer sold. */
export const planNameIn = (catalogue: CatalogueResponse | undefined) => (planId: string) =>
  catalogue?.plans.find((plan) => plan.id === planId)?.name ?? planId;

function Loading({ label }: { label: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className="admin-users__audit-loading">
      <div className="skeleton admin-users__skeleton-line" />
      <div className="skeleton admin-users__skeleton-line admin-users__skeleton-line--short" />
    </div>
  );
}

/** What the person bought or was given: subscription, orders and licences, and the admin's ways to add to them. */
export function CommerceSection({ user }: { user: AdminUserDetail }) {
  const billing = useQuery(userBillingQuery(user.id));
  const licences = useQuery(userLicencesQuery(user.id));
  const catalogue = useQuery(catalogueQuery(useDataSource()));
  const planName = planNameIn(catalogue.data);
  const subscription = billing.data?.subscription;
  const orders = billing.data?.orders ?? [];

  return (
    <PanelSection title="Commerce">
      <div className="admin-users__commerce-block">
        <h4 className="admin-users__subtitle">Subscription</h4>
        {billing.isPending ? (
          <Loading label="Loading subscription" />
        ) : billing.isError ? (
          <RetryAlert message={billing.error.message} onRetry={() => void billing.refetch()} />
        ) : !subscription ? (
          <p className="muted admin-users__none">No subscription.</p>
        ) : (
          <dl className="admin-users__facts admin-users__subscription">
            <div>
              <dt>Plan</dt>
              <dd>{planName(subscription.planId)}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <span className={stateClass(subscription.status)}>{statusLabel(subscription.status)}</span>
              </dd>
            </div>
            <div>
              <dt>{subscription.cancelAtPeriodEnd || subscription.cancelAt ? 'Ends' : 'Renews'}</dt>
              <dd>
                {subscription.cancelAt
                  ? formatDate(subscription.cancelAt)
                  : subscription.currentPeriodEnd
                    ? formatDate(subscription.currentPeriodEnd)
                    : '—'}
              </dd>
            </div>
          </dl>
        )}
        {billing.data?.stripeCustomerId ? <p className="admin-users__meta muted">Stripe customer {billing.data.stripeCustomerId}</p> : null}
      </div>

      <div className="admin-users__commerce-block">
        <h4 className="admin-users__subtitle">Orders</h4>
        {billing.isPending ? (
          <Loading label="Loading orders" />
        ) : billing.isError ? null : orders.length === 0 ? (
          <p className="muted admin-users__none">No orders yet.</p>
        ) : (
          <ul className="admin-users__records" aria-label="Orders">
            {orders.map((order) => (
              <li key={order.id} className="admin-users__record">
                <div className="admin-users__record-head">
                  <strong>{planName(order.planId)}</strong>
                  <span className={stateClass(order.status)}>{statusLabel(order.status)}</span>
                </div>
                <p className="admin-users__meta">
                  <span>{formatDate(order.createdAt)}</span>
                  <span>{formatMoney(order.amountMinor, order.currency)}</span>
                  {order.kind === 'manual' ? <span>Manual</span> : null}
                  {order.receiptUrl ? (
                    <a href={order.receiptUrl} target="_blank" rel="noreferrer">
                      Receipt{order.receiptNumber ? ` ${order.receiptNumber}` : ''}
                    </a>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        )}
        <ManualOrderForm user={user} plans={catalogue.data?.plans ?? []} />
      </div>

      <div className="admin-users__commerce-block">
        <h4 className="admin-users__subtitle">Licences</h4>
        {licences.isPending ? (
          <Loading label="Loading licences" />
        ) : licences.isError ? (
          <RetryAlert message={licences.error.message} onRetry={() => void licences.refetch()} />
        ) : licences.data.licences.length === 0 ? (
          <p className="muted admin-users__none">No licences yet.</p>
        ) : (
          <LicenceList user={user} licences={licences.data.licences} planName={planName} />
        )}
        <GrantLicenceForm user={user} catalogue={catalogue.data} />
      </div>
    </PanelSection>
  );
}
