import type { DecodeResult as LinkerDecodeResult } from '../../../../lib/tools/linker/linker.js';
import { DecodeResult } from './DecodeResult.js';
import { LinkInput } from './LinkInput.js';
import '../linker.css';

interface Props {
  link: string;
  onLink: (link: string) => void;
  decoded: LinkerDecodeResult | null;
  onDecode: () => void;
  onExample: () => void;
  onVerify: () => void;
}

/** Decode: a link or `_gl` value in, its version, fingerprint and cookies out. */
export function DecodePanel({ link, onLink, decoded, onDecode, onExample, onVerify }: Props) {
  return (
    <div className="linker-stack">
      <form
        className="card form"
        aria-label="Decode a link"
        onSubmit={(event) => {
          event.preventDefault();
          onDecode();
        }}
      >
        <LinkInput label="Link or _gl value" value={link} onChange={onLink} />
        <div className="linker-actions">
          <button type="submit" className="button button--primary">
            Decode
          </button>
          <button type="button" className="button" onClick={onExample}>
            Fill in an example
          </button>
          {decoded?.ok ? (
            <button type="button" className="button button--ghost" onClick={onVerify}>
              Verify this link
            </button>
          ) : null}
        </div>
      </form>
      {decoded === null ? (
        <section className="empty-state">
          <h2>Nothing decoded yet</h2>
          <p>Paste a link that went through cross-domain measurement, or fill in an example made for this browser.</p>
        </section>
      ) : decoded.ok ? (
        <DecodeResult result={decoded} />
      ) : (
        <div className="alert alert--error" role="alert" data-testid="linker-error">
          {decoded.error}
        </div>
      )}
    </div>
  );
}
