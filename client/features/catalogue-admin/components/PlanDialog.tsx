import { type FormEvent, useId, useState } from 'react';
import {
  type AdminPlan,
  type CreatePlanRequest,
  CURRENCIES,
  type Currency,
  PLAN_INTERVALS,
  PLAN_LIMITS,
  type PlanInterval,
  type UpdatePlanRequest,
} from '../../../../lib/api/catalogue.js';
import { COMPANION_PRODUCTS, PRODUCT_SLUGS, type ProductSlug } from '../../../../lib/product.js';
import { Dialog } from '../../../components/Dialog.js';
import { Field, FormField } from '../../../components/FormField.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useCreatePlan, useUpdatePlan } from '../api.js';
import { decimalToMinor, formatMoney, minorDigits, minorToDecimal } from '../../../../lib/money.js';
import { intervalLabel } from '../format.js';
import '../catalogue-admin.css';

const PRODUCT_NAMES = new Map<string, string>(Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name]));

interface Props {
  /** The plan to edit; none: a new plan. */
  plan?: AdminPlan;
  onClose: () => void;
}

/** The form as typed: strings, as the inputs hold them. */
function readForm(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  return {
    id: text('id'),
    name: text('name'),
    description: text('description'),
    features: text('features')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    products: data.getAll('products').map(String) as ProductSlug[],
    price: text('price'),
    currency: text('currency') as Currency,
    interval: text('interval') as PlanInterval,
    seats: Number(text('seats')),
    trialDays: Number(text('trialDays') || '0'),
    stripePriceId: text('stripePriceId') || null,
    featured: data.get('featured') === 'on',
    sortOrder: Number(text('sortOrder') || '0'),
  };
}

/** Only what changed: the audit log then lists the fields the admin actually edited. */
function changesOf(plan: AdminPlan, next: Omit<CreatePlanRequest, 'id'>): UpdatePlanRequest {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(value) !== JSON.stringify(plan[key as keyof AdminPlan])) changes[key] = value;
  }
  return changes as UpdatePlanRequest;
}

/** Create or edit a plan, in the shared dialog; errors beside their fields, the outcome in a toast. */
export function PlanDialog({ plan, onClose }: Props) {
  const toast = useToast();
  const create = useCreatePlan();
  const update = useUpdatePlan();
  const mutation = plan ? update : create;
  const formId = useId();
  const [priceError, setPriceError] = useState<string | null>(null);
  const [currency, setCurrency] = useState<Currency>(plan?.currency ?? 'eur');
  const errors = fieldErrors(mutation.error);
  const toastKey = `catalogue:${plan?.id ?? 'new'}`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const { price, id, ...form } = readForm(element);
    const amountMinor = decimalToMinor(price, form.currency);
    if (amountMinor === null) {
      (element.elements.namedItem('price') as HTMLInputElement | null)?.focus();
      setPriceError(`Enter a price such as 29.00, with at most ${minorDigits(form.currency)} decimals.`);
      return;
    }
    setPriceError(null);
    const body = { ...form, amountMinor };
    const done = (saved: AdminPlan) => {
      toast(`${saved.name} saved: ${formatMoney(saved.amountMinor, saved.currency)}`, 'success', { key: toastKey });
      onClose();
    };
    const failed = () => toast(`${body.name || 'Plan'} not saved`, 'error', { key: toastKey });
    if (plan) {
      const changes = changesOf(plan, body);
      if (Object.keys(changes).length === 0) {
        onClose();
        return;
      }
      update.mutate({ id: plan.id, changes }, { onSuccess: done, onError: failed });
    } else {
      create.mutate({ id, ...body }, { onSuccess: done, onError: failed });
    }
  };

  const priceErrors = priceError ? [priceError] : errors.amountMinor;
  return (
    <Dialog title={plan ? `Edit ${plan.name}` : 'New plan'} closeLabel={plan ? `editing ${plan.name}` : 'new plan'} onClose={onClose}>
      <form id={formId} className="form catalogue-admin__form" aria-label={plan ? 'Edit plan' : 'New plan'} onSubmit={submit} noValidate>
        <FormAlert error={mutation.error} />
        {plan ? (
          <p className="field__hint catalogue-admin__plan-id">
            Plan id <code>{plan.id}</code> (orders refer to it: it cannot change).
          </p>
        ) : (
          <FormField
            label="Plan id"
            name="id"
            className="catalogue-admin__field"
            required
            autoComplete="off"
            spellCheck={false}
            hint="3 to 40 lower-case letters, digits and single dashes, e.g. team-monthly."
            errors={errors.id}
            maxLength={40}
          />
        )}
        <FormField label="Name" name="name" defaultValue={plan?.name} required maxLength={PLAN_LIMITS.nameMax} errors={errors.name} />
        <div className="catalogue-admin__row">
          <FormField
            label="Price"
            name="price"
            inputMode="decimal"
            autoComplete="off"
            defaultValue={plan ? minorToDecimal(plan.amountMinor, plan.currency) : ''}
            placeholder="29.00"
            hint={`In ${currency.toUpperCase()}, e.g. 29.00`}
            required
            errors={priceErrors}
          />
          <Field label="Currency" errors={errors.currency}>
            {(control) => (
              <select
                {...control}
                name="currency"
                className="input"
                value={currency}
                onChange={(event) => setCurrency(event.target.value as Currency)}
              >
                {CURRENCIES.map((code) => (
                  <option key={code} value={code}>
                    {code.toUpperCase()}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Billing" errors={errors.interval}>
            {(control) => (
              <select {...control} name="interval" className="input" defaultValue={plan?.interval ?? 'month'}>
                {PLAN_INTERVALS.map((interval) => (
                  <option key={interval} value={interval}>
                    {intervalLabel(interval)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="catalogue-admin__row">
          <FormField
            label="Seats"
            name="seats"
            type="text"
            inputMode="numeric"
            min={1}
            max={PLAN_LIMITS.seatsMax}
            defaultValue={plan?.seats ?? 1}
            errors={errors.seats}
          />
          <FormField
            label="Trial days"
            name="trialDays"
            type="text"
            inputMode="numeric"
            min={0}
            max={PLAN_LIMITS.trialDaysMax}
            defaultValue={plan?.trialDays ?? 0}
            errors={errors.trialDays}
          />
          <FormField
            label="Sort order"
            name="sortOrder"
            type="text"
            inputMode="numeric"
            min={0}
            max={10_000}
            defaultValue={plan?.sortOrder ?? 100}
            errors={errors.sortOrder}
          />
        </div>
        <FormField
          label="Stripe price id"
          name="stripePriceId"
          autoComplete="off"
          spellCheck={false}
          defaultValue={plan?.stripePriceId ?? ''}
          placeholder="price_…"
          hint="Empty: the site makes and keeps a Stripe price in step with the amount and billing above. Give your own only for a price you manage in Stripe."
          errors={errors.stripePriceId}
        />
        <Field label="Description" errors={errors.description}>
          {(control) => (
            <textarea
              {...control}
              name="description"
              className="input"
              rows={2}
              maxLength={PLAN_LIMITS.descriptionMax}
              defaultValue={plan?.description}
            />
          )}
        </Field>
        <Field label="Features" hint="One per line." errors={errors.features}>
          {(control) => <textarea {...control} name="features" className="input" rows={3} defaultValue={plan?.features.join('\n')} />}
        </Field>
        <fieldset className="catalogue-admin__fieldset" aria-describedby={errors.products ? `${formId}-products` : undefined}>
          <legend className="label">Products</legend>
          {PRODUCT_SLUGS.map((slug) => (
            <label key={slug} className="checkbox">
              <input type="checkbox" name="products" value={slug} defaultChecked={plan ? plan.products.includes(slug) : true} />
              <span>{PRODUCT_NAMES.get(slug) ?? slug}</span>
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
        <label className="checkbox">
          <input type="checkbox" name="featured" defaultChecked={plan?.featured ?? false} />
          <span>Featured (highlighted on the pricing page)</span>
        </label>
        <div className="catalogue-admin__actions">
          <button type="submit" className="button button--primary" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving…' : plan ? 'Save plan' : 'Create plan'}
          </button>
          <button type="button" className="button button--ghost" disabled={mutation.isPending} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
