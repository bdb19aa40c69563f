import { useId } from 'react';
import '../linker.css';

/** The link or `_gl` value to decode or verify. */
export function LinkInput({ value, onChange, label }: { value: string; onChange: (value: string) => void; label: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="linker-input"
        rows={3}
        value={value}
        spellCheck={false}
        placeholder="https://shop.example.com/?_gl=1*1abc2de*_ga*MTIzNDU2Nzg5MC4xNzAwMDAwMDAw"
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p className="field__hint" id={`${id}-hint`}>
        A whole URL (query or #fragment, percent-encoded or not), <code>_gl=…</code>, or the bare value.
      </p>
    </div>
  );
}
