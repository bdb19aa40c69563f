import { useId } from 'react';
import type { EncodedLinker } from '../../../../lib/tools/linker/linker.js';
import { SegmentedControl } from '../../../components/SegmentedControl.js';
import type { BrowserErrors, BrowserForm } from '../browser-form.js';
import type { EncodeErrors } from '../hooks/useLinker.js';
import type { CookiePreset } from '../presets.js';
import { BrowserFields } from './BrowserFields.js';
import { type CookieRow, CookieRows } from './CookieRows.js';
import { CopyButton } from './CopyButton.js';
import '../linker.css';

type Placement = 'query' | 'fragment';

const PLACEMENTS = [
  { value: 'query', label: 'Query string' },
  { value: 'fragment', label: 'Fragment (#)' },
] as const;

interface Props {
  rows: CookieRow[];
  onRows: (rows: CookieRow[]) => void;
  onAddRow: (preset?: CookiePreset) => void;
  browser: BrowserForm;
  browserErrors: BrowserErrors;
  onBrowser: (browser: BrowserForm) => void;
  baseUrl: string;
  onBaseUrl: (url: string) => void;
  placement: Placement;
  onPlacement: (placement: Placement) => void;
  errors: EncodeErrors;
  encoded: EncodedLinker | null;
  onEncode: () => void;
  onDecodeGenerated: () => void;
}

/** The generated `_gl` value and decorated URL, each with a copy button. */
function EncodedLink({ encoded, onDecode }: { encoded: EncodedLinker; onDecode: () => void }) {
  return (
    <section className="card linker-output" aria-label="Generated link">
      <div className="field">
        <span className="label">_gl value</span>
        <div className="linker-value">
          <code data-testid="linker-encoded-value">{encoded.value}</code>
          <CopyButton value={encoded.value} label="_gl value" />
        </div>
      </div>
      {encoded.url ? (
        <div className="field">
          <span className="label">Decorated URL</span>
          <div className="linker-value">
            <code data-testid="linker-encoded-url">{encoded.url}</code>
            <CopyButton value={encoded.url} label="decorated URL" />
          </div>
        </div>
      ) : null}
      <p className="muted">
        Fingerprint <code>{encoded.fingerprint}</code> for minute {encoded.minute}; sent as{' '}
        {encoded.entries.map((entry) => entry.key).join(', ') || 'no cookies'}.
      </p>
      <div className="linker-actions">
        <button type="button" className="button" onClick={onDecode}>
          Decode it
        </button>
      </div>
    </section>
  );
}

/** Encode: cookies and a browser in, a `_gl` value and a decorated URL out. */
export function EncodePanel(props: Props) {
  const { rows, onRows, onAddRow, browser, browserErrors, onBrowser, baseUrl, onBaseUrl, placement, onPlacement, errors, encoded } = props;
  const urlId = useId();
  return (
    <div className="linker-stack">
      <form
        className="card form"
        aria-label="Encode a link"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          props.onEncode();
        }}
      >
        <CookieRows rows={rows} onChange={onRows} error={errors.cookies} onAdd={onAddRow} />
        <BrowserFields value={browser} errors={browserErrors} onChange={onBrowser} timeLabel="Time of the click" />
        <div className="field">
          <label htmlFor={urlId}>URL to decorate (optional)</label>
          <input
            id={urlId}
            type="url"
            value={baseUrl}
            spellCheck={false}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? `${urlId}-error` : undefined}
            onChange={(event) => onBaseUrl(event.target.value)}
          />
          {errors.url ? (
            <p className="field__error" id={`${urlId}-error`} role="alert">
              {errors.url}
            </p>
          ) : null}
        </div>
        <div className="linker-placement">
          <SegmentedControl showLabel label="Put _gl in the" options={PLACEMENTS} value={placement} onChange={onPlacement} />
          <p className="field__hint">The fragment is where gtag puts it with url_position: &apos;fragment&apos;.</p>
        </div>
        <div className="linker-actions">
          <button type="submit" className="button button--primary">
            Generate
          </button>
        </div>
      </form>
      {encoded ? <EncodedLink encoded={encoded} onDecode={props.onDecodeGenerated} /> : null}
    </div>
  );
}
