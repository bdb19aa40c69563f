import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { SubscriptionView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { planChoice, type RunningSubscription } from '../../../../lib/billing/plan-choice.js';
import { formatMoney } from '../../../../lib/money.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { planPreviewQuery, useChangePlan } from '../api.js';
import { formatDate, planLabel } from '../format.js';
import { PlanCards } from './PlanCards.js';

export const TOAST_KEY = 'billing-subscription';

interface Props {
  subscription: SubscriptionView;
  plans: readonly CataloguePlan[];
  /** The person's other running subscriptions: a plan covering their products is not offered. */
  others: readonly RunningSubscription[];
  /** A plan to show the preview of at once (chosen on the home page). */
  initialPlanId?: string | null;
  onClose: () => void;
}

/**
 * Change plan: the recurring plans, then Stripe's preview of the chosen switch (the prorations for
 * the rest of the period and the next invoice), confirmed with the preview's proration date so
 * Stripe charges exactly what was shown.
 */
export function ChangePlanDialog({ subscription, plans, others, initialPlanId = null, onClose }: Props) {
  const [targetId, setTargetId] = useState<string | null>(initialPlanId);
  const target = plans.find((plan) => plan.id === targetId && plan.interval !== 'lifetime') ?? null;
  const current = plans.find((plan) => plan.id === subscription.planId);
  return (
    <Dialog title={target ? `Switch to ${planLabel(target)}?` : 'Change plan'} onClose={onClose} className="billing-dialog">
      {target ? (
        <PlanPreview subscription={subscription} current={current} target={target} onBack={() => setTargetId(null)} onDone={onClose} />
      ) : (
        <>
          <p>The new plan starts now. Stripe credits the unused part of this period and charges the new plan for the rest of it.</p>
          <PlanCards
            plans={plans.filter((plan) => plan.interval !== 'lifetime')}
            selectedId={subscription.planId}
            selectedLabel="Current plan"
            action={(plan) => {
              if (plan.id === subscription.planId) {
                return (
                  <button type="button" className="button button--block" disabled>
                    Current plan
                  </button>
                );
              }
              const choice = planChoice(plan, others);
              return choice.kind === 'buy' ? (
                <button type="button" className="button button--block" onClick={() => setTargetId(plan.id)}>
                  Switch to {plan.name}
                </button>
              ) : (
                <button type="button" className="button button--block" disabled title="Another of your subscriptions covers these products">
                  Covered by another subscription
                </button>
              );
            }}
          />
        </>
      )}
    </Dialog>
  );
}

function PlanPreview({
  subscription,
  current,
  target,
  onBack,
  onDone,
}: {
  subscription: SubscriptionView;
  current: CataloguePlan | undefined;
  target: CataloguePlan;
  onBack: () => void;
  onDone: () => void;
}) {
  const toast = useToast();
  const change = useChangePlan();
  const preview = useQuery(planPreviewQuery({ planId: target.id, subscriptionId: subscription.id, quantity: subscription.quantity }));
  const money = (amount: number) => formatMoney(amount, preview.data?.currency ?? target.currency);
  const confirm = () =>
    change.mutate(
      { planId: target.id, subscriptionId: subscription.id, quantity: subscription.quantity, prorationDate: preview.data?.prorationDate },
      {
        onSuccess: () => {
          onDone();
          toast(`Your plan is now ${planLabel(target)}.`, 'success', { key: TOAST_KEY });
        },
      },
    );
  return (
    <div className="billing-preview">
      <p>
        From <strong>{current ? planLabel(current) : subscription.planId}</strong> to <strong>{planLabel(target)}</strong>, starting now.
      </p>
      {preview.isPending ? (
        <div className="billing-preview__loading" role="status" aria-busy="true">
          <span className="billing-spinner" aria-hidden="true" /> Asking Stripe what the change costs…
        </div>
      ) : preview.isError ? (
        <FormAlert error={preview.error}>
          <button type="button" className="button button--small" onClick={() => void preview.refetch()}>
            Try again
          </button>
        </FormAlert>
      ) : (
        <section className="billing-preview__figures" aria-label="What the change costs">
          <p className="billing-preview__sum">
            {preview.data.prorationMinor >= 0 ? 'To pay for the rest of this period' : 'Credit for the rest of this period'}:{' '}
            <strong>{money(Math.abs(preview.data.prorationMinor))}</strong>
          </p>
          <table className="table billing-preview__lines">
            <caption className="visually-hidden">Lines of the next invoice</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col" className="numeric">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.data.lines.map((line, index) => (
                <tr key={index}>
                  <td>
                    {line.description || (line.proration ? 'Adjustment' : 'Next period')}
                    {line.proration ? <span className="billing-preview__tag">proration</span> : null}
                  </td>
                  <td className="numeric">{money(line.amountMinor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="billing-preview__next">
            Next invoice{preview.data.nextPaymentAt ? ` on ${formatDate(preview.data.nextPaymentAt)}` : ''}:{' '}
            <strong>{money(preview.data.totalMinor)}</strong>, charged to the payment method on file.
          </p>
        </section>
      )}
      <FormAlert error={change.error} />
      <div className="billing-dialog__actions">
        <button type="button" className="button button--primary" disabled={!preview.isSuccess || change.isPending} onClick={confirm}>
          {change.isPending ? 'Switching…' : `Confirm switch to ${target.name}`}
        </button>
        <button type="button" className="button button--ghost" disabled={change.isPending} onClick={onBack}>
          Back to the plans
        </button>
      </div>
    </div>
  );
}
