import { useState } from 'react';
import type { SubscriptionView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import type { OwnedLicence } from '../../../../lib/api/licences.js';
import type { RunningSubscription } from '../../../../lib/billing/plan-choice.js';
import { productsText } from '../../../../lib/billing/plan-copy.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useCancelAtPeriodEnd, usePortal, useResume } from '../api.js';
import { formatDate, isRunning, planLabel, subscriptionStatus } from '../format.js';
import { ChangePlanDialog, TOAST_KEY } from './ChangePlanDialog.js';
import { SourceLicences } from './SourceLicences.js';
import { StatusBadge } from './StatusBadge.js';

interface Props {
  subscription: SubscriptionView;
  plans: readonly CataloguePlan[];
  /** Without Stripe nothing can be changed here: the details only, no buttons. */
  configured: boolean;
  /** The person's licences (their own page's query); null while they load. */
  licences?: readonly OwnedLicence[];
  /** The person's other running subscriptions (what a plan change may not overlap). */
  others?: readonly RunningSubscription[];
  /** Open the change dialog with this plan's preview (the plan chosen on the home page). */
  switchTo?: string | null;
  onSwitchClosed?: () => void;
}

/** When the subscription renews or ends, in words. */
function periodText(subscription: SubscriptionView): { term: string; value: string } | null {
  const end = subscription.cancelAt ?? subscription.currentPeriodEnd;
  if (subscription.status === 'canceled') return end ? { term: 'Ended', value: formatDate(end) } : null;
  if (subscription.cancelAtPeriodEnd && end) return { term: 'Ends on', value: formatDate(end) };
  if (subscription.status === 'trialing' && subscription.trialEnd) return { term: 'Trial ends', value: formatDate(subscription.trialEnd) };
  if (subscription.currentPeriodEnd) return { term: 'Renews on', value: formatDate(subscription.currentPeriodEnd) };
  return null;
}

export function SubscriptionDetails({ subscription, plans, configured, licences, others = [], switchTo = null, onSwitchClosed }: Props) {
  const toast = useToast();
  const cancel = useCancelAtPeriodEnd();
  const resume = useResume();
  const portal = usePortal();
  const [dialog, setDialog] = useState<'cancel' | 'change' | null>(null);
  const plan = plans.find((candidate) => candidate.id === subscription.planId);
  const status = subscriptionStatus(subscription);
  const period = periodText(subscription);
  const running = isRunning(subscription.status);
  const busy = cancel.isPending || resume.isPending || portal.isPending;
  const target = { subscriptionId: subscription.id };
  const changeOpen = dialog === 'change' || (switchTo !== null && running);
  const closeChange = () => {
    setDialog(null);
    onSwitchClosed?.();
  };

  const confirmCancel = () =>
    cancel.mutate(target, {
      onSuccess: ({ subscription: now }) => {
        setDialog(null);
        const end = now?.cancelAt ?? now?.currentPeriodEnd ?? subscription.currentPeriodEnd;
        toast(`Your subscription will end${end ? ` on ${formatDate(end)}` : ' at the end of the period'}.`, 'success', { key: TOAST_KEY });
      },
    });
  const doResume = () =>
    resume.mutate(target, { onSuccess: () => toast('Your subscription will renew as before.', 'success', { key: TOAST_KEY }) });
  const title = plan ? planLabel(plan) : subscription.planId || 'Subscription';

  return (
    <section className="card billing-current" aria-label={title}>
      <div className="billing-current__head">
        <h3 className="billing__title">{title}</h3>
        <StatusBadge label={status.label} tone={status.tone} />
      </div>
      <dl className="billing-facts">
        {subscription.products.length ? (
          <div className="billing-facts__item">
            <dt>Covers</dt>
            <dd>{productsText(subscription.products)}</dd>
          </div>
        ) : null}
        {period ? (
          <div className="billing-facts__item">
            <dt>{period.term}</dt>
            <dd>{period.value}</dd>
          </div>
        ) : null}
        <div className="billing-facts__item">
          <dt>Seats</dt>
          <dd>{subscription.seats}</dd>
        </div>
      </dl>
      <SourceLicences licences={licences} sourceId={subscription.id} />
      {subscription.status === 'past_due' || subscription.status === 'unpaid' ? (
        <p className="alert alert--error billing-notice">The last payment failed. Update your payment method in the billing portal.</p>
      ) : null}
      {configured ? (
        <>
          <FormAlert error={resume.error ?? portal.error} />
          <div className="billing-current__actions">
            {running && !subscription.cancelAtPeriodEnd ? (
              <button type="button" className="button" disabled={busy} onClick={() => setDialog('cancel')}>
                Cancel at period end
              </button>
            ) : null}
            {running && subscription.cancelAtPeriodEnd ? (
              <button type="button" className="button button--primary" disabled={busy} onClick={doResume}>
                {resume.isPending ? 'Resuming…' : 'Resume subscription'}
              </button>
            ) : null}
            {running ? (
              <button type="button" className="button" disabled={busy} onClick={() => setDialog('change')}>
                Change plan
              </button>
            ) : null}
            <button
              type="button"
              className="button button--ghost"
              disabled={busy}
              onClick={() => portal.mutate({ subscriptionId: subscription.id })}
            >
              {portal.isPending ? 'Opening billing portal…' : 'Manage billing'}
            </button>
          </div>
        </>
      ) : null}
      {dialog === 'cancel' ? (
        <Dialog title="Cancel at period end?" placement="centered" onClose={() => setDialog(null)}>
          <p>
            Your plan stays active
            {subscription.currentPeriodEnd ? ` until ${formatDate(subscription.currentPeriodEnd)}` : ' until the end of the period'}, then
            it is not renewed. You can resume it until then.
          </p>
          <FormAlert error={cancel.error} />
          <div className="billing-dialog__actions">
            <button type="button" className="button button--destructive" disabled={cancel.isPending} onClick={confirmCancel}>
              {cancel.isPending ? 'Cancelling…' : 'Cancel at period end'}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setDialog(null)}>
              Keep my plan
            </button>
          </div>
        </Dialog>
      ) : null}
      {changeOpen ? (
        <ChangePlanDialog subscription={subscription} plans={plans} others={others} initialPlanId={switchTo} onClose={closeChange} />
      ) : null}
    </section>
  );
}
