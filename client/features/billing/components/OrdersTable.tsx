import { useQuery } from '@tanstack/react-query';
import type { OrderView } from '../../../../lib/api/billing.js';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery, ordersQuery } from '../../../app/queries.js';
import { AppLink } from '../../../components/AppLink.js';
import { formatDate, formatPrice, ORDER_STATUS, planLabel } from '../format.js';
import { StatusBadge } from './StatusBadge.js';
import '../billing.css';

const PRODUCT_NAMES: Record<string, string> = Object.fromEntries(
  Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name]),
);

/** /dashboard/user/orders: every order, newest first, with its receipt. */
export function OrdersTable() {
  const source = useDataSource();
  const orders = useQuery(ordersQuery(source));
  // Plan names only; an order shows its plan id when the catalogue is unavailable.
  const catalogue = useQuery(catalogueQuery(source));
  if (orders.isPending) {
    return (
      <div className="card billing-loading" aria-busy="true" aria-label="Loading your orders">
        <div className="skeleton billing-loading__line" />
        <div className="skeleton billing-loading__line" />
        <div className="skeleton billing-loading__line" />
      </div>
    );
  }
  if (orders.isError) {
    return (
      <div className="alert alert--error billing-notice" role="alert">
        Could not load your orders.{' '}
        <button type="button" className="button button--small" onClick={() => void orders.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (!orders.data.orders.length) {
    return (
      <section className="empty-state" aria-label="No orders yet">
        <h2>No orders yet</h2>
        <p>
          When you buy a plan, the order and its receipt appear here. <AppLink to="/dashboard/user/subscription">See the plans</AppLink>
        </p>
      </section>
    );
  }
  const planName = (order: OrderView) => {
    const plan = catalogue.data?.plans.find((candidate) => candidate.id === order.planId);
    return plan ? planLabel(plan) : order.planId;
  };
  return (
    <div className="table-wrap billing-orders">
      <table className="table table--stack">
        <caption className="visually-hidden">Your orders</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Products</th>
            <th scope="col">Plan</th>
            <th scope="col" className="numeric">
              Amount
            </th>
            <th scope="col">Currency</th>
            <th scope="col">Status</th>
            <th scope="col">Receipt</th>
          </tr>
        </thead>
        <tbody>
          {orders.data.orders.map((order) => {
            const status = ORDER_STATUS[order.status];
            return (
              <tr key={order.id}>
                <td data-label="Date" className="billing-orders__date">
                  {formatDate(order.paidAt ?? order.createdAt)}
                </td>
                <td data-label="Products">{order.products.map((slug) => PRODUCT_NAMES[slug] ?? slug).join(', ')}</td>
                <td data-label="Plan">
                  {planName(order)}
                  {order.quantity > 1 ? ` × ${order.quantity}` : ''}
                </td>
                <td data-label="Amount" className="numeric">
                  {formatPrice(order.amountMinor, order.currency)}
                  {order.refundedMinor > 0 ? (
                    <span className="billing-orders__refund">{formatPrice(order.refundedMinor, order.currency)} refunded</span>
                  ) : null}
                </td>
                <td data-label="Currency">{order.currency.toUpperCase()}</td>
                <td data-label="Status">
                  <StatusBadge label={status.label} tone={status.tone} />
                </td>
                <td data-label="Receipt">
                  {order.receiptUrl ? (
                    <a className="billing-orders__receipt" href={order.receiptUrl} target="_blank" rel="noreferrer">
                      {order.receiptNumber ?? 'Receipt'}
                      <span className="visually-hidden"> (opens in a new tab)</span>
                    </a>
                  ) : (
                    <span className="muted">None</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
