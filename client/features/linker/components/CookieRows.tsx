import { useId, useRef } from 'react';
import '../linker.css';

export interface CookieRow {
  id: number;
  key: string;
  value: string;
}

/** Editable name/value rows: add, remove, and presets for the usual gtag cookies. */
export function CookieRows({
  rows,
  onChange,
  onAdd,
  error,
}: {
  rows: CookieRow[];
  onChange: (rows: CookieRow[]) => void;
  onAdd: (preset?: 'ga' | 'ga-session' | 'gcl-au') => void;
  error?: string;
}) {
  const id = useId();
  // The removed row's button goes away with it; focus moves to "Add cookie" instead of the page.
  const addButton = useRef<HTMLButtonElement>(null);
  const update = (rowId: number, field: 'key' | 'value', value: string) =>
    onChange(rows.map((row) => (row.id === rowId ? { ...row, [field]: value } : row)));
  return (
    <fieldset className="linker-cookies" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Cookies</legend>
      <p className="field__hint">
        Paste values as they read on the page (GA1.1.…, GS2.1.…, 1.1.…): the prefixes gtag does not send are dropped.
      </p>
      {rows.length === 0 ? <p className="muted linker-cookies__empty">No cookies yet: add one or use a preset.</p> : null}
      <ul className="linker-cookies__rows">
        {rows.map((row, index) => (
          <li key={row.id} className="linker-cookies__row" data-testid="linker-cookie-row">
            <div className="field">
              <label htmlFor={`${id}-${row.id}-name`}>Name {index + 1}</label>
              <input
                id={`${id}-${row.id}-name`}
                type="text"
                value={row.key}
                spellCheck={false}
                onChange={(event) => update(row.id, 'key', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-${row.id}-value`}>Value {index + 1}</label>
              <input
                id={`${id}-${row.id}-value`}
                type="text"
                value={row.value}
                spellCheck={false}
                onChange={(event) => update(row.id, 'value', event.target.value)}
              />
            </div>
            <button
              type="button"
              className="button button--small button--ghost button--danger linker-cookies__remove"
              aria-label={`Remove cookie ${row.key || index + 1}`}
              onClick={() => {
                onChange(rows.filter((other) => other.id !== row.id));
                addButton.current?.focus();
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
      <div className="linker-actions">
        <button ref={addButton} type="button" className="button button--small" onClick={() => onAdd()}>
          Add cookie
        </button>
        <button type="button" className="button button--small" onClick={() => onAdd('ga')}>
          + _ga
        </button>
        <button type="button" className="button button--small" onClick={() => onAdd('ga-session')}>
          + _ga_&lt;id&gt;
        </button>
        <button type="button" className="button button--small" onClick={() => onAdd('gcl-au')}>
          + _gcl_au
        </button>
      </div>
    </fieldset>
  );
}
