import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { cookiesProblem, urlProblem } from '../../../lib/tools/linker/inputs.js';
import { decode, type DecodeResult as LinkerDecodeResult, encode, type EncodedLinker } from '../../../lib/tools/linker/linker.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useToast } from '../../components/Toaster.js';
import {
  type BrowserErrors,
  BrowserFields,
  type BrowserForm,
  currentBrowser,
  parseBrowserForm,
} from '../../features/linker/components/BrowserFields.js';
import { type CookieRow, CookieRows } from '../../features/linker/components/CookieRows.js';
import { CopyButton } from '../../features/linker/components/CopyButton.js';
import { DecodeResult } from '../../features/linker/components/DecodeResult.js';
import { type LinkerTab, LinkerTabs } from '../../features/linker/components/LinkerTabs.js';
import { useReportRun } from '../../features/linker/hooks/useReportRun.js';
import { VerificationResult } from '../../features/linker/components/VerificationResult.js';
import '../../features/linker/linker.css';

const EMPTY_BROWSER: BrowserForm = { userAgent: '', timezoneOffset: '', language: '', time: '' };

function randomDigits(length: number): string {
  let digits = String(1 + Math.floor(Math.random() * 9));
  while (digits.length < length) digits += String(Math.floor(Math.random() * 10));
  return digits;
}

function preset(kind: 'ga' | 'ga-session' | 'gcl-au'): { key: string; value: string } {
  const now = Math.floor(Date.now() / 1000);
  if (kind === 'ga') return { key: '_ga', value: `GA1.1.${randomDigits(10)}.${now}` };
  if (kind === 'ga-session') return { key: '_ga_ABC123XYZ', value: `GS2.1.s${now}$o1$g1$t${now}$j60$l0$h0` };
  return { key: '_gcl_au', value: `1.1.${randomDigits(9)}.${now}` };
}

/** A link made right now for this browser, so the example also verifies as valid. */
function exampleUrl(browser: BrowserForm): string {
  const parsed = parseBrowserForm({ ...browser, time: browser.time || new Date().toISOString() });
  const made = encode({
    cookies: [preset('ga'), preset('ga-session'), preset('gcl-au')],
    browser: parsed.ok ? parsed.browser : { userAgent: '', timezoneOffset: 0, language: '' },
    time: Date.now(),
    url: 'https://shop.example.com/checkout?step=2',
  });
  return made.ok ? made.url! : '';
}

function LinkInput({ value, onChange, label }: { value: string; onChange: (value: string) => void; label: string }) {
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

export default function LinkerPage() {
  const toast = useToast();
  const report = useReportRun();
  const [tab, setTab] = useState<LinkerTab>('decode');
  const [link, setLink] = useState('');
  const [browser, setBrowser] = useState<BrowserForm>(EMPTY_BROWSER);
  const [browserErrors, setBrowserErrors] = useState<BrowserErrors>({});
  const [decoded, setDecoded] = useState<LinkerDecodeResult | null>(null);
  const [verified, setVerified] = useState<LinkerDecodeResult | null>(null);
  const [rows, setRows] = useState<CookieRow[]>([]);
  const [baseUrl, setBaseUrl] = useState('https://shop.example.com/checkout');
  const [placement, setPlacement] = useState<'query' | 'fragment'>('query');
  const [encodeErrors, setEncodeErrors] = useState<{ cookies?: string; url?: string }>({});
  const [encoded, setEncoded] = useState<EncodedLinker | null>(null);
  const nextRow = useRef(1);
  const urlId = useId();

  // The browser facts exist only in the browser: filled after hydration, so the server render matches.
  useEffect(() => {
    setBrowser(currentBrowser());
    setRows([preset('ga'), preset('ga-session')].map((cookie) => ({ id: nextRow.current++, ...cookie })));
  }, []);

  const runDecode = (input: string) => {
    const result = decode(input);
    setDecoded(result);
    report('decode', { input: input.slice(0, 16_384) });
    if (result.ok) toast(`Decoded ${result.cookies.length} cookie${result.cookies.length === 1 ? '' : 's'}.`, 'success');
  };

  const onDecode = (event: FormEvent) => {
    event.preventDefault();
    if (!link.trim()) {
      setDecoded({ ok: false, error: 'Enter a _gl value or a URL.' });
      return;
    }
    runDecode(link);
  };

  const onVerify = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseBrowserForm(browser);
    setBrowserErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) {
      setVerified(null);
      return;
    }
    if (!link.trim()) {
      setVerified({ ok: false, error: 'Enter a _gl value or a URL.' });
      return;
    }
    setVerified(decode(link, { browser: parsed.browser, time: parsed.time }));
    report('decode', { input: link.slice(0, 16_384), browser: parsed.browser, time: parsed.time });
  };

  const onEncode = (event: FormEvent) => {
    event.preventDefault();
    const cookies = rows.map(({ key, value }) => ({ key: key.trim(), value }));
    const errors = { cookies: cookiesProblem(cookies), url: baseUrl.trim() ? urlProblem(baseUrl.trim()) : undefined };
    const parsed = parseBrowserForm(browser);
    setBrowserErrors(parsed.ok ? {} : parsed.errors);
    setEncodeErrors(errors);
    if (!parsed.ok || errors.cookies || errors.url) {
      setEncoded(null);
      return;
    }
    const result = encode({ cookies, browser: parsed.browser, time: parsed.time, url: baseUrl.trim() || undefined, placement });
    if (!result.ok) {
      setEncodeErrors({ cookies: result.error });
      setEncoded(null);
      return;
    }
    setEncoded(result);
    report('encode', {
      cookies,
      browser: parsed.browser,
      time: parsed.time,
      ...(baseUrl.trim() ? { url: baseUrl.trim(), placement } : {}),
    });
    toast('Link generated.', 'success');
  };

  const decodeGenerated = () => {
    if (!encoded) return;
    const input = encoded.url ?? encoded.value;
    setLink(input);
    setTab('decode');
    runDecode(input);
  };

  return (
    <>
      <PageHeader title="Google tag linker">
        Decode a <code>_gl</code> linker parameter or a decorated URL into its cookies, check its fingerprint against a browser, or build
        one from cookies. Everything runs in your browser with the same code as gtag.js&apos;s linker.
      </PageHeader>

      <LinkerTabs active={tab} onChange={setTab}>
        {tab === 'decode' ? (
          <div className="linker-stack">
            <form className="card form" onSubmit={onDecode} aria-label="Decode a link">
              <LinkInput label="Link or _gl value" value={link} onChange={setLink} />
              <div className="linker-actions">
                <button type="submit" className="button button--primary">
                  Decode
                </button>
                <button type="button" className="button" onClick={() => setLink(exampleUrl(browser))}>
                  Fill in an example
                </button>
                {decoded?.ok ? (
                  <button type="button" className="button button--ghost" onClick={() => setTab('verify')}>
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
        ) : null}

        {tab === 'verify' ? (
          <div className="linker-stack">
            <form className="card form" onSubmit={onVerify} aria-label="Verify a link" noValidate>
              <LinkInput label="Link or _gl value" value={link} onChange={setLink} />
              <BrowserFields value={browser} errors={browserErrors} onChange={setBrowser} timeLabel="Time of the click" />
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
                  {verified.cookies.length} cookie{verified.cookies.length === 1 ? '' : 's'}:{' '}
                  {verified.cookies.map((cookie) => cookie.key).join(', ') || 'none'}.
                </p>
              </section>
            ) : (
              <div className="alert alert--error" role="alert" data-testid="linker-error">
                {verified.ok ? 'Nothing to verify.' : verified.error}
              </div>
            )}
          </div>
        ) : null}

        {tab === 'encode' ? (
          <div className="linker-stack">
            <form className="card form" onSubmit={onEncode} aria-label="Encode a link" noValidate>
              <CookieRows
                rows={rows}
                onChange={setRows}
                error={encodeErrors.cookies}
                onAdd={(kind) => setRows((list) => [...list, { id: nextRow.current++, ...(kind ? preset(kind) : { key: '', value: '' }) }])}
              />
              <BrowserFields value={browser} errors={browserErrors} onChange={setBrowser} timeLabel="Time of the click" />
              <div className="field">
                <label htmlFor={urlId}>URL to decorate (optional)</label>
                <input
                  id={urlId}
                  type="url"
                  value={baseUrl}
                  spellCheck={false}
                  aria-invalid={encodeErrors.url ? true : undefined}
                  aria-describedby={encodeErrors.url ? `${urlId}-error` : undefined}
                  onChange={(event) => setBaseUrl(event.target.value)}
                />
                {encodeErrors.url ? (
                  <p className="field__error" id={`${urlId}-error`} role="alert">
                    {encodeErrors.url}
                  </p>
                ) : null}
              </div>
              <fieldset className="linker-placement">
                <legend>Put _gl in the</legend>
                <label className="checkbox">
                  <input type="radio" name="placement" checked={placement === 'query'} onChange={() => setPlacement('query')} /> query
                  string (default)
                </label>
                <label className="checkbox">
                  <input type="radio" name="placement" checked={placement === 'fragment'} onChange={() => setPlacement('fragment')} />{' '}
                  fragment (#), like url_position: &apos;fragment&apos;
                </label>
              </fieldset>
              <div className="linker-actions">
                <button type="submit" className="button button--primary">
                  Generate
                </button>
              </div>
            </form>
            {encoded ? (
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
                  <button type="button" className="button" onClick={decodeGenerated}>
                    Decode it
                  </button>
                </div>
              </section>
            ) : null}
          </div>
        ) : null}
      </LinkerTabs>
    </>
  );
}
