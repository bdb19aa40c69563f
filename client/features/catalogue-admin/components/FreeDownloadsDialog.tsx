import type { CatalogueProduct } from '../../../../lib/api/catalogue.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useUpdateProduct } from '../api.js';
import '../catalogue-admin.css';

/** The question before a product's free downloads go on or off; the answer is a toast. */
export function FreeDownloadsDialog({ product, onClose }: { product: CatalogueProduct; onClose: () => void }) {
  const toast = useToast();
  const update = useUpdateProduct();
  const turnOn = !product.downloadsFree;
  const key = `catalogue:${product.slug}:downloads`;

  const confirm = () =>
    update.mutate(
      { slug: product.slug, changes: { downloadsFree: turnOn } },
      {
        onSuccess: () => {
          toast(turnOn ? `Downloads of ${product.name} are free` : `Downloads of ${product.name} need a licence again`, 'success', { key });
          onClose();
        },
        onError: () => toast(`Free downloads of ${product.name} not ${turnOn ? 'turned on' : 'turned off'}`, 'error', { key }),
      },
    );

  return (
    <Dialog
      title={turnOn ? `Make ${product.name} downloads free?` : `Require a licence for ${product.name} downloads?`}
      placement="centered"
      closeLabel={`free downloads of ${product.name}`}
      onClose={onClose}
    >
      <FormAlert error={update.error} />
      <p>
        {turnOn
          ? 'Anybody can download every published build, signed in or not, without a licence. Licences are still needed to activate the product.'
          : 'Only people with a valid licence can download the builds again, from the next download on.'}
      </p>
      <div className="catalogue-admin__actions">
        <button
          type="button"
          className={`button ${turnOn ? 'button--primary' : 'button--destructive'}`}
          disabled={update.isPending}
          onClick={confirm}
        >
          {update.isPending ? 'Working…' : turnOn ? 'Make downloads free' : 'Require a licence'}
        </button>
        <button type="button" className="button button--ghost" disabled={update.isPending} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
