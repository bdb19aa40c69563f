import { plural } from '../format.js';
import '../ga4mp.css';

interface Props {
  text: string;
  error: string | null;
  onChange: (text: string) => void;
  onFormat: () => void;
}

/**
 * The JSON body as text, kept in sync with the form both ways. Text that does not parse stays here
 * with the parse error, and the form keeps the last valid body.
 */
export function RawJsonEditor({ text, error, onChange, onFormat }: Props) {
  const lines = text.split('\n').length;
  return (
    <section className="ga4mp-section ga4mp-raw" aria-labelledby="ga4mp-raw-title">
      <div className="ga4mp-section__header">
        <h2 id="ga4mp-raw-title">Raw JSON body</h2>
        <span className="ga4mp-raw__lines muted">{plural(lines, 'line')}</span>
        <button type="button" className="button button--small" onClick={onFormat} disabled={error !== null}>
          Format
        </button>
      </div>
      <label htmlFor="ga4mp-raw-json" className="visually-hidden">
        Measurement Protocol JSON body
      </label>
      <textarea
        id="ga4mp-raw-json"
        className="input ga4mp-raw__text ga4mp-scroll"
        value={text}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        rows={18}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'ga4mp-raw-error' : 'ga4mp-raw-hint'}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p className="field__error" id="ga4mp-raw-error" role="alert">
          Invalid JSON: {error}. The form keeps the last valid payload.
        </p>
      ) : (
        <p className="field__hint" id="ga4mp-raw-hint">
          The form and this text update each other.
        </p>
      )}
    </section>
  );
}
