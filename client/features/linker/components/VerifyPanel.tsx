import type { DecodeResult } from '../../../../lib/tools/linker/linker.js';
import type { BrowserErrors, BrowserForm } from '../browser-form.js';
import { BrowserFields } from './BrowserFields.js';
import { LinkInput } from './LinkInput.js';
import { VerificationResult } from './VerificationResult.js';
import '../linker.css';

interface Props {
  link: string;
  onLink: (link: string) => void;
  browser: BrowserForm;
  browserErrors: BrowserErrors;
  onBrowser: (browser: BrowserForm) => void;
  verified: DecodeResult | null;
  onVerify: () => void;
}

/** Verify: would gtag.js in this browser, at this time, accept the link? */
export function VerifyPanel({ link, onLink, browser, browserErrors, onBrowser, verified, onVerify }: Props) {
  const cookies = verified?.ok ? verified.cookies : [];
  return (
    <div className="linker-stack">
      <form
        className="card form"
        aria-label="Verify a link"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onVerify();
        }}
      >
        <LinkInput label="Link or _gl value" value={link} onChange={onLink} />
        <BrowserFields value={browser} errors={browserErrors} onChange={onBrowser} timeLabel="Time of the click" />
        <p className="field__hint">
          gtag.js accepts a link in the minute it was made and the two after, and only in a browser with the same user agent, timezone
          offset and language.
        </p>
        <div className="linker-actions">
          <button type="submit" className="button button--primary">
            Verify
          </button>
        </div>
      </form>
      {verified === null ? null : verified.ok && verified.verification ? (
        <section className="linker-result" aria-label="Verification">
          <VerificationResult verification={verified.verification} />
          <p className="muted">
            {cookies.length} {cookies.length === 1 ? 'cookie' : 'cookies'}: {cookies.map((cookie) => cookie.key).join(', ') || 'none'}.
          </p>
        </section>
      ) : (
        <div className="alert alert--error" role="alert" data-testid="linker-error">
          {verified.ok ? 'Nothing to verify.' : verified.error}
        </div>
      )}
    </div>
  );
}
