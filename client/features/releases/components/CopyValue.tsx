import { useId } from 'react';
import { useToast } from '../../../components/Toaster.js';
import '../releases.css';

/**
 * A value in a read-only monospace field with a Copy button (a toast says how it went). `detail`
 * completes the label for screen readers only ("SHA-256" + " of Chrome 1.4.0").
 */
export function CopyValue({ label, detail = '', value, what }: { label: string; detail?: string; value: string; what: string }) {
  const id = useId();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast(`${what} copied`, 'success', { key: `copy-${value}` });
    } catch {
      toast(`Could not copy the ${what.toLowerCase()}. Select it and copy it by hand.`, 'error', { key: `copy-${value}` });
    }
  };
  return (
    <div className="release-copy">
      <label className="release-copy__label" htmlFor={id}>
        {label}
        {detail ? <span className="visually-hidden">{` ${detail}`}</span> : null}
      </label>
      <div className="release-copy__row">
        <input
          id={id}
          className="input release-copy__input"
          value={value}
          readOnly
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button--small release-copy__button" onClick={() => void copy()}>
          Copy<span className="visually-hidden">{` ${label}${detail ? ` ${detail}` : ''}`}</span>
        </button>
      </div>
    </div>
  );
}
