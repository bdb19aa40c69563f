import type { PurchaseView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import type { OwnedLicence } from '../../../../lib/api/licences.js';
import { productName, productsText } from '../../../../lib/billing/plan-copy.js';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { formatDate, formatPrice, planLabel, PURCHASE_STATE } from '../format.js';
import { SourceLicences } from './SourceLicences.js';
import { StatusBadge } from './StatusBadge.js';

/** Why a purchase no longer gives a working licence, in a sentence. */
const STATE_NOTE: Partial<Record<PurchaseView['state'], string>> = {
  suspended: 'The payment is disputed with your bank: the licences are suspended until the dispute is decided.',
  revoked: 'The payment was refunded (or a dispute was lost): the licences are revoked.',
};

interface Props {
  purchase: PurchaseView;
  plans: readonly CataloguePlan[];
  licences: readonly OwnedLicence[] | undefined;
}

/** A one-off purchase (a lifetime plan, or an order an administrator recorded): what it covers, until when, and its licences. */
export function PurchaseDetails({ purchase, plans, licences }: Props) {
  const plan = plans.find((candidate) => candidate.id === purchase.planId);
  const title = plan ? planLabel(plan) : purchase.planId;
  const state = PURCHASE_STATE[purchase.state];
  const note = STATE_NOTE[purchase.state];
  return (
    <section className="card billing-current" aria-label={title}>
      <div className="billing-current__head">
        <h3 className="billing__title">{title}</h3>
        <StatusBadge label={state.label} tone={state.tone} />
      </div>
      <dl className="billing-facts">
        <div className="billing-facts__item">
          <dt>Covers</dt>
          <dd>{productsText(purchase.products)}</dd>
        </div>
        <div className="billing-facts__item">
          <dt>Valid</dt>
          <dd>{purchase.expiresAt ? `Until ${formatDate(purchase.expiresAt)}` : 'Forever (one-off)'}</dd>
        </div>
        <div className="billing-facts__item">
          <dt>Seats</dt>
          <dd>{purchase.seats}</dd>
        </div>
        <div className="billing-facts__item">
          <dt>Paid</dt>
          <dd>
            {formatPrice(purchase.amountMinor, purchase.currency)} on {formatDate(purchase.paidAt)}
          </dd>
        </div>
      </dl>
      {note ? <p className="alert alert--error billing-notice">{note}</p> : null}
      <SourceLicences licences={licences} sourceId={purchase.orderId} />
      {purchase.state === 'active' ? (
        <div className="billing-current__actions">
          {purchase.products.map((product) => (
            <AppLink key={product} to={`/dashboard/tools/${product}`} className="button">
              <Icon name="download" size={18} /> Download {productName(product)}
            </AppLink>
          ))}
        </div>
      ) : null}
    </section>
  );
}
