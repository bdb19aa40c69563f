import { type FormEvent, useId, useRef, useState } from 'react';
import type { AdminUserDetail } from '../../../../lib/api/admin-users.js';
import type { CataloguePlan, CatalogueResponse } from '../../../../lib/api/catalogue.js';
import type { ProductSlug } from '../../../../lib/product.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useGrantLicence, useRecordManualOrder } from '../api.js';
import { formatMoney } from '../../../../lib/money.js';
import '../admin-users.css';

/** A button that opens a small form below it, and gets the focus back when the form closes. */
function useDisclosure() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => toggle.current?.focus());
  };
  return { open, setOpen, toggle, close };
}

function PlanSelect({
  plans,
  value,
  onChange,
  errors,
}: {
  plans: CataloguePlan[];
  value: string;
  onChange: (id: string) => void;
  errors?: string[];
}) {
  return (
    <Field label="Plan" errors={errors}>
      {(control) => (
        <select {...control} name="planId" className="input" value={value} onChange={(event) => onChange(event.target.value)}>
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name} ({formatMoney(plan.amountMinor, plan.currency)},{' '}
              {plan.interval === 'lifetime' ? 'one-off' : `per ${plan.interval}`})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

const noteOf = (form: HTMLFormElement) => {
  const note = String(new FormData(form).get('note') ?? '').trim();
  return note ? { note } : {};
};

/** Give the person a licence without an order (a partner, a support case). */
export function GrantLicenceForm({ user, catalogue }: { user: AdminUserDetail; catalogue: CatalogueResponse | undefined }) {
  const toast = useToast();
  const grant = useGrantLicence();
  const { open, setOpen, toggle, close } = useDisclosure();
  const formId = useId();
  const plans = catalogue?.plans ?? [];
  const [planId, setPlanId] = useState('');
  const plan = plans.find((candidate) => candidate.id === planId) ?? plans[0];
  const [products, setProducts] = useState<ProductSlug[] | null>(null);
  const [seats, setSeats] = useState('');
  const chosenProducts = products ?? plan?.products ?? [];
  const errors = fieldErrors(grant.error);

  const choosePlan = (id: string) => {
    setPlanId(id);
    setProducts(null);
    setSeats('');
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!plan) return;
    const form = event.currentTarget;
    grant.mutate(
      { userId: user.id, planId: plan.id, products: chosenProducts, seats: Number(seats || plan.seats), ...noteOf(form) },
      {
        onSuccess: () => {
          toast(`${plan.name} licence granted to ${user.name}`, 'success', { key: `admin-user:${user.id}:grant` });
          form.reset();
          choosePlan('');
          close();
        },
      },
    );
  };

  return (
    <div className="admin-users__commerce-form">
      <button
        ref={toggle}
        type="button"
        className="button button--small"
        aria-expanded={open}
        aria-controls={open ? formId : undefined}
        disabled={plans.length === 0}
        onClick={() => setOpen(!open)}
      >
        Grant licence
      </button>
      {open && plan ? (
        <form id={formId} className="form admin-users__form" aria-label="Grant licence" onSubmit={submit} noValidate>
          <FormAlert error={grant.error} />
          <PlanSelect plans={plans} value={plan.id} onChange={choosePlan} errors={errors.planId} />
          <fieldset className="admin-users__fieldset" aria-describedby={errors.products ? `${formId}-products` : undefined}>
            <legend className="label">Products</legend>
            {(catalogue?.products ?? []).map((product) => (
              <label key={product.slug} className="checkbox">
                <input
                  type="checkbox"
                  name="products"
                  value={product.slug}
                  checked={chosenProducts.includes(product.slug)}
                  onChange={(event) =>
                    setProducts(
                      event.target.checked ? [...chosenProducts, product.slug] : chosenProducts.filter((slug) => slug !== product.slug),
                    )
                  }
                />
                <span>{product.name}</span>
              </label>
            ))}
            {errors.products ? (
              <div className="field__error" id={`${formId}-products`} role="alert">
                {errors.products.map((message) => (
                  <p key={message}>{message}</p>
                ))}
              </div>
            ) : null}
          </fieldset>
          <Field label="Seats" errors={errors.seats} hint={`The plan gives ${plan.seats}.`}>
            {(control) => (
              <input
                {...control}
                type="number"
                name="seats"
                className="input admin-users__seats"
                min={1}
                max={1000}
                inputMode="numeric"
                value={seats || String(plan.seats)}
                onChange={(event) => setSeats(event.target.value)}
              />
            )}
          </Field>
          <NoteField errors={errors.note} />
          <div className="admin-users__confirm-actions">
            <button type="submit" className="button button--primary" disabled={grant.isPending}>
              {grant.isPending ? 'Granting…' : 'Grant licence'}
            </button>
            <button type="button" className="button button--ghost" disabled={grant.isPending} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

function NoteField({ errors }: { errors?: string[] }) {
  return (
    <Field label="Note (optional)" errors={errors} hint="Kept in the audit log.">
      {(control) => <textarea {...control} name="note" className="input" rows={2} maxLength={500} />}
    </Field>
  );
}

/** An order paid outside Stripe (bank transfer, invoice): recorded as paid, its licence follows. */
export function ManualOrderForm({ user, plans }: { user: AdminUserDetail; plans: CataloguePlan[] }) {
  const toast = useToast();
  const record = useRecordManualOrder();
  const { open, setOpen, toggle, close } = useDisclosure();
  const formId = useId();
  const [planId, setPlanId] = useState('');
  const plan = plans.find((candidate) => candidate.id === planId) ?? plans[0];
  const errors = fieldErrors(record.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!plan) return;
    const form = event.currentTarget;
    record.mutate(
      { userId: user.id, planId: plan.id, ...noteOf(form) },
      {
        onSuccess: (order) => {
          toast(`${plan.name} order of ${formatMoney(order.amountMinor, order.currency)} recorded for ${user.name}`, 'success', {
            key: `admin-user:${user.id}:order`,
          });
          form.reset();
          setPlanId('');
          close();
        },
      },
    );
  };

  return (
    <div className="admin-users__commerce-form">
      <button
        ref={toggle}
        type="button"
        className="button button--small"
        aria-expanded={open}
        aria-controls={open ? formId : undefined}
        disabled={plans.length === 0}
        onClick={() => setOpen(!open)}
      >
        Record manual order
      </button>
      {open && plan ? (
        <form id={formId} className="form admin-users__form" aria-label="Record manual order" onSubmit={submit} noValidate>
          <FormAlert error={record.error} />
          <PlanSelect plans={plans} value={plan.id} onChange={setPlanId} errors={errors.planId} />
          <p className="field__hint">
            Recorded as paid ({formatMoney(plan.amountMinor, plan.currency)}), with a receipt; the plan’s licence follows.
          </p>
          <NoteField errors={errors.note} />
          <div className="admin-users__confirm-actions">
            <button type="submit" className="button button--primary" disabled={record.isPending}>
              {record.isPending ? 'Recording…' : 'Record order'}
            </button>
            <button type="button" className="button button--ghost" disabled={record.isPending} onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
