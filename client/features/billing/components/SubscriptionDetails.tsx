import { useState } from 'react';
import type { SubscriptionView } from '../../../../lib/api/billing.js';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useCancelAtPeriodEnd, useChangePlan, usePortal, useResume } from '../api.js';
import { formatDate, isRunning, planLabel, subscriptionStatus } from '../format.js';
import { PlanCards } from './PlanCards.js';
import { StatusBadge } from './StatusBadge.js';

const TOAST_KEY = 'billing-subscription';

interface Props {
  subscription: SubscriptionView;
  plans: readonly CataloguePlan[];
  /** Without Stripe nothing can be changed here: the details only, no buttons. */
  configured: boolean;
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

export function SubscriptionDetails({ subscription, plans, configured }: Props) {
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

  const confirmCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setDialog(null);
        toast(
          `Your subscription will end${subscription.currentPeriodEnd ? ` on ${formatDate(subscription.currentPeriodEnd)}` : ' at the end of the period'}.`,
          'success',
          { key: TOAST_KEY },
        );
      },
    });
  const doResume = () =>
    resume.mutate(undefined, { onSuccess: () => toast('Your subscription will renew as before.', 'success', { key: TOAST_KEY }) });

  return (
    <section className="card billing-current" aria-labelledby="billing-current-title">
      <div className="billing-current__head">
        <h2 id="billing-current-title" className="billing__title">
          {plan ? planLabel(plan) : subscription.planId}
        </h2>
        <StatusBadge label={status.label} tone={status.tone} />
      </div>
      <dl className="billing-facts">
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
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => portal.mutate({})}>
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
      {dialog === 'change' ? <ChangePlanDialog subscription={subscription} plans={plans} onClose={() => setDialog(null)} /> : null}
    </section>
  );
}

function ChangePlanDialog({
  subscription,
  plans,
  onClose,
}: {
  subscription: SubscriptionView;
  plans: readonly CataloguePlan[];
  onClose: () => void;
}) {
  const toast = useToast();
  const change = useChangePlan();
  // A one-off plan is bought, not switched to.
  const recurring = plans.filter((plan) => plan.interval !== 'lifetime');
  return (
    <Dialog title="Change plan" onClose={onClose} className="billing-dialog">
      <p>The new plan starts now; Stripe prorates the difference on your next invoice.</p>
      <FormAlert error={change.error} />
      <PlanCards
        plans={recurring}
        selectedId={subscription.planId}
        selectedLabel="Current plan"
        action={(plan) =>
          plan.id === subscription.planId ? (
            <button type="button" className="button button--block" disabled>
              Current plan
            </button>
          ) : (
            <button
              type="button"
              className="button button--block"
              disabled={change.isPending}
              onClick={() =>
                change.mutate(
                  { planId: plan.id, quantity: subscription.quantity },
                  {
                    onSuccess: () => {
                      onClose();
                      toast(`Plan change to ${planLabel(plan)} requested.`, 'success', { key: TOAST_KEY });
                    },
                  },
                )
              }
            >
              {change.isPending && change.variables?.planId === plan.id ? 'Switching…' : `Switch to ${plan.name}`}
            </button>
          )
        }
      />
    </Dialog>
  );
}
