import type { AdminPlan } from '../../../../lib/api/catalogue.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useDeactivatePlan, useUpdatePlan } from '../api.js';
import '../catalogue-admin.css';

/** The question before a plan goes off sale (or back on): a centred dialog whose answer is a toast. */
export function ActivationDialog({ plan, onClose }: { plan: AdminPlan; onClose: () => void }) {
  const toast = useToast();
  const deactivate = useDeactivatePlan();
  const update = useUpdatePlan();
  const mutation = plan.active ? deactivate : update;
  const verb = plan.active ? 'Deactivate' : 'Activate';
  const key = `catalogue:${plan.id}:active`;

  const confirm = () => {
    const options = {
      onSuccess: () => {
        toast(plan.active ? `${plan.name} is off sale` : `${plan.name} is on sale again`, 'success', { key });
        onClose();
      },
      onError: () => toast(`${plan.name} not ${plan.active ? 'deactivated' : 'activated'}`, 'error', { key }),
    };
    if (plan.active) deactivate.mutate(plan.id, options);
    else update.mutate({ id: plan.id, changes: { active: true } }, options);
  };

  return (
    <Dialog title={`${verb} ${plan.name}?`} placement="centered" closeLabel={`${verb.toLowerCase()} ${plan.name}`} onClose={onClose}>
      <FormAlert error={mutation.error} />
      <p>
        {plan.active
          ? 'It leaves the pricing pages and can no longer be bought. Subscriptions, orders and licences of it keep working.'
          : 'It shows on the pricing pages again and can be bought.'}
      </p>
      <div className="catalogue-admin__actions">
        <button
          type="button"
          className={`button ${plan.active ? 'button--destructive' : 'button--primary'}`}
          disabled={mutation.isPending}
          onClick={confirm}
        >
          {mutation.isPending ? 'Working…' : verb}
        </button>
        <button type="button" className="button button--ghost" disabled={mutation.isPending} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
