import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminPlan } from '../../../../lib/api/catalogue.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { adminPlansQuery, adminStripeCatalogueQuery, useSyncStripeCatalogue } from '../api.js';
import { ActivationDialog } from './ActivationDialog.js';
import { PlanDialog } from './PlanDialog.js';
import { PlansTable } from './PlansTable.js';
import { ProductDownloads } from './ProductDownloads.js';
import '../catalogue-admin.css';

type Open = { kind: 'new' } | { kind: 'edit'; plan: AdminPlan } | { kind: 'activation'; plan: AdminPlan } | null;

/** The catalogue card of /admin/settings: the plans on sale (and off it), edited one at a time, and the products' download switches. */
export function CatalogueSection() {
  const plans = useQuery(adminPlansQuery());
  const stripe = useQuery(adminStripeCatalogueQuery());
  const sync = useSyncStripeCatalogue();
  const pending = stripe.data?.configured && stripe.data.plans.some((plan) => plan.mode === 'pending');
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  let body;
  if (plans.isPending) {
    body = (
      <div role="status" aria-busy="true" aria-label="Loading plans" className="catalogue-admin__loading">
        <div className="skeleton catalogue-admin__skeleton" />
        <div className="skeleton catalogue-admin__skeleton" />
        <div className="skeleton catalogue-admin__skeleton" />
      </div>
    );
  } else if (plans.isError) {
    body = (
      <div className="alert alert--error catalogue-admin__load-error" role="alert">
        <span>Could not load the plans.</span>
        <button type="button" className="button button--small" onClick={() => void plans.refetch()}>
          Retry
        </button>
      </div>
    );
  } else if (plans.data.plans.length === 0) {
    body = (
      <div className="empty-state catalogue-admin__empty">
        <h3>No plans yet</h3>
        <p>Nothing can be bought until a plan is created.</p>
      </div>
    );
  } else {
    body = (
      <PlansTable
        plans={plans.data.plans}
        stripe={stripe.data}
        onEdit={(plan) => setOpen({ kind: 'edit', plan })}
        onToggleActive={(plan) => setOpen({ kind: 'activation', plan })}
      />
    );
  }

  return (
    <section className="card catalogue-admin" aria-labelledby="catalogue-title">
      <div className="catalogue-admin__header">
        <div>
          <h2 id="catalogue-title">Catalogue</h2>
          <p className="muted">
            The plans on the pricing pages. Prices are charged as shown; every change is audited. Each plan is sold through a Stripe price
            the site keeps in step with it (a changed price makes a new one), unless you give it your own.
          </p>
        </div>
        <div className="catalogue-admin__header-actions">
          {pending ? (
            <button type="button" className="button" disabled={sync.isPending} onClick={() => sync.mutate()}>
              {sync.isPending ? 'Syncing with Stripe…' : 'Sync with Stripe'}
            </button>
          ) : null}
          <button type="button" className="button button--primary" onClick={() => setOpen({ kind: 'new' })}>
            New plan
          </button>
        </div>
      </div>
      <FormAlert error={sync.error} />
      {body}
      <ProductDownloads />
      {open?.kind === 'new' ? <PlanDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? <PlanDialog key={open.plan.id} plan={open.plan} onClose={close} /> : null}
      {open?.kind === 'activation' ? <ActivationDialog key={open.plan.id} plan={open.plan} onClose={close} /> : null}
    </section>
  );
}
