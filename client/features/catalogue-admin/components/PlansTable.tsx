import type { StripeCatalogueView, StripePlanView } from '../../../../lib/api/billing.js';
import type { AdminPlan } from '../../../../lib/api/catalogue.js';
import { coversAll, productName } from '../../../../lib/billing/plan-copy.js';
import { formatMoney } from '../../../../lib/money.js';
import { PRODUCT } from '../../../../lib/product.js';
import { intervalLabel } from '../format.js';
import '../catalogue-admin.css';

interface Props {
  plans: AdminPlan[];
  /** How the plans are sold through Stripe; undefined while it loads (or when it could not be read). */
  stripe: StripeCatalogueView | undefined;
  onEdit: (plan: AdminPlan) => void;
  onToggleActive: (plan: AdminPlan) => void;
}

/** The Stripe cell: the Price a plan is sold with, whose it is, or why there is none. */
function StripeCell({ plan, stripe }: { plan: AdminPlan; stripe: StripeCatalogueView | undefined }) {
  if (!stripe) return <span className="muted">…</span>;
  if (!stripe.configured) return <span className="muted">Stripe not configured</span>;
  const view: StripePlanView | undefined = stripe.plans.find((candidate) => candidate.planId === plan.id);
  if (!view || view.mode === 'pending') {
    return <span className="muted">{plan.active ? 'Price made at the next checkout' : 'No Stripe price'}</span>;
  }
  return (
    <span className="catalogue-admin__stripe">
      <code className="catalogue-admin__stripe-id" title={view.priceId ?? undefined}>
        {view.priceId}
      </code>
      <span className="catalogue-admin__stripe-note">{view.mode === 'price' ? 'Your price' : 'Synced with the catalogue'}</span>
    </span>
  );
}

/** Every plan, in display order; stacks into cards on phones. */
export function PlansTable({ plans, stripe, onEdit, onToggleActive }: Props) {
  return (
    <div className="table-wrap catalogue-admin__table-wrap">
      <table className="table table--stack catalogue-admin__table">
        <caption className="visually-hidden">Plans</caption>
        <thead>
          <tr>
            <th scope="col">Plan</th>
            <th scope="col">Products</th>
            <th scope="col" className="numeric">
              Price
            </th>
            <th scope="col" className="numeric">
              Seats
            </th>
            <th scope="col">Stripe</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {plans.map((plan) => (
            <tr key={plan.id} className={plan.active ? undefined : 'catalogue-admin__row--inactive'}>
              <th scope="row">
                <span className="catalogue-admin__name">{plan.name}</span>
                <span className="catalogue-admin__id">{plan.id}</span>
                <span className="catalogue-admin__badges">
                  {plan.active ? <span className="badge badge--accent">Active</span> : <span className="badge">Inactive</span>}
                  {plan.featured ? <span className="badge">Featured</span> : null}
                </span>
              </th>
              <td data-label="Products">
                <ul className="catalogue-admin__plan-products" aria-label={coversAll(plan.products) ? 'Both products' : 'One product'}>
                  {plan.products.map((product) => (
                    <li key={product}>
                      {/* "Apps", "Browsers" on screen; the whole name for screen readers. */}
                      <span className="visually-hidden">{PRODUCT.name} for </span>
                      {productName(product).replace(`${PRODUCT.name} for `, '')}
                    </li>
                  ))}
                </ul>
              </td>
              <td data-label="Price" className="numeric">
                {formatMoney(plan.amountMinor, plan.currency)}
                <span className="catalogue-admin__interval">{intervalLabel(plan.interval)}</span>
              </td>
              <td data-label="Seats" className="numeric">
                {plan.seats}
              </td>
              <td data-label="Stripe">
                <StripeCell plan={plan} stripe={stripe} />
              </td>
              <td className="catalogue-admin__row-actions">
                <button type="button" className="button button--small" onClick={() => onEdit(plan)}>
                  Edit
                  <span className="visually-hidden">
                    {' '}
                    {plan.name} ({plan.id})
                  </span>
                </button>
                <button type="button" className="button button--small button--ghost" onClick={() => onToggleActive(plan)}>
                  {plan.active ? 'Deactivate' : 'Activate'}
                  <span className="visually-hidden">
                    {' '}
                    {plan.name} ({plan.id})
                  </span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
