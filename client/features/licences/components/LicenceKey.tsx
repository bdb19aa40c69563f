import { useId } from 'react';
import type { OwnedLicence } from '../../../../lib/api/licences.js';
import { useToast } from '../../../components/Toaster.js';
import '../licences.css';

/** The key in a read-only field (select it by hand, or copy it with the button). */
export function LicenceKey({ licence }: { licence: Pick<OwnedLicence, 'key' | 'keyHint' | 'productName'> }) {
  const id = useId();
  const toast = useToast();
  const { key } = licence;

  if (!key) {
    return (
      <div className="licence__key">
        <span className="licence__label">Licence key</span>
        <p className="licence__key-missing">
          <span className="licence__key-hint">…{licence.keyHint}</span> The key cannot be shown right now. Contact support to have it sent
          to you.
        </p>
      </div>
    );
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(key);
      toast('Licence key copied', 'success', { key: `licence-key-${licence.keyHint}` });
    } catch {
      toast('Could not copy the key. Select it and copy it by hand.', 'error', { key: `licence-key-${licence.keyHint}` });
    }
  };

  return (
    <div className="licence__key">
      <label className="licence__label" htmlFor={id}>
        Licence key<span className="visually-hidden"> for {licence.productName}</span>
      </label>
      <div className="licence__key-row">
        <input
          id={id}
          className="input licence__key-input"
          value={key}
          readOnly
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button licence__copy" onClick={() => void copy()}>
          Copy<span className="visually-hidden"> the licence key for {licence.productName}</span>
        </button>
      </div>
    </div>
  );
}
