import { useRef, useState } from 'react';
import { cookiesProblem, urlProblem } from '../../../../lib/tools/linker/inputs.js';
import { decode, type DecodeResult, encode, type EncodedLinker } from '../../../../lib/tools/linker/linker.js';
import { useToast } from '../../../components/Toaster.js';
import { useReportLinkerRun } from '../api.js';
import { type BrowserErrors, type BrowserForm, currentBrowser, parseBrowserForm } from '../browser-form.js';
import type { CookieRow } from '../components/CookieRows.js';
import type { LinkerTab } from '../components/LinkerTabs.js';
import { type CookiePreset, exampleUrl, preset } from '../presets.js';

const MAX_INPUT = 16_384;
const NO_LINK = 'Enter a _gl value or a URL.';
const TOAST = { key: 'linker' };
/** What the browser fields hold before a tab that shows them was opened (never on screen). */
const NO_BROWSER: BrowserForm = { userAgent: '', timezoneOffset: '', language: '', time: '' };

export interface EncodeErrors {
  cookies?: string;
  url?: string;
}

/**
 * The linker's state across its three tabs (a link decoded here is the one verified there, the
 * browser facts are shared by Verify and Encode) and what each button does. The codec runs here, in
 * the browser; each run is also reported to the API.
 */
export function useLinker() {
  const toast = useToast();
  const report = useReportLinkerRun();
  const [tab, setTab] = useState<LinkerTab>('decode');
  const [link, setLink] = useState('');
  // This browser's facts and the preset cookies (random ids, the current time) exist only in the
  // browser: they are taken when a tab that shows them is first opened, never in the server render.
  const [browser, setBrowser] = useState<BrowserForm | null>(null);
  const [rows, setRows] = useState<CookieRow[] | null>(null);
  const [browserErrors, setBrowserErrors] = useState<BrowserErrors>({});
  const [decoded, setDecoded] = useState<DecodeResult | null>(null);
  const [verified, setVerified] = useState<DecodeResult | null>(null);
  const [baseUrl, setBaseUrl] = useState('https://shop.example.com/checkout');
  const [placement, setPlacement] = useState<'query' | 'fragment'>('query');
  const [encodeErrors, setEncodeErrors] = useState<EncodeErrors>({});
  const [encoded, setEncoded] = useState<EncodedLinker | null>(null);
  const nextRow = useRef(1);

  const newRow = (cookie: { key: string; value: string }): CookieRow => ({ id: nextRow.current++, ...cookie });

  const openTab = (next: LinkerTab) => {
    setTab(next);
    if (next === 'decode') return;
    if (browser === null) setBrowser(currentBrowser());
    if (rows === null) setRows([newRow(preset('ga')), newRow(preset('ga-session'))]);
  };

  const runDecode = (input: string) => {
    const result = decode(input);
    setDecoded(result);
    report({ action: 'decode', request: { input: input.slice(0, MAX_INPUT) } });
    if (result.ok) toast(`Decoded ${result.cookies.length} ${result.cookies.length === 1 ? 'cookie' : 'cookies'}.`, 'success', TOAST);
  };

  const decodeLink = () => {
    if (!link.trim()) setDecoded({ ok: false, error: NO_LINK });
    else runDecode(link);
  };

  const fillExample = () => setLink(exampleUrl(browser ?? currentBrowser()));

  const verifyLink = () => {
    const parsed = parseBrowserForm(browser ?? currentBrowser());
    setBrowserErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) {
      setVerified(null);
      return;
    }
    if (!link.trim()) {
      setVerified({ ok: false, error: NO_LINK });
      return;
    }
    setVerified(decode(link, { browser: parsed.browser, time: parsed.time }));
    report({ action: 'decode', request: { input: link.slice(0, MAX_INPUT), browser: parsed.browser, time: parsed.time } });
  };

  const encodeLink = () => {
    const cookies = (rows ?? []).map(({ key, value }) => ({ key: key.trim(), value }));
    const url = baseUrl.trim();
    const errors: EncodeErrors = { cookies: cookiesProblem(cookies), url: url ? urlProblem(url) : undefined };
    const parsed = parseBrowserForm(browser ?? currentBrowser());
    setBrowserErrors(parsed.ok ? {} : parsed.errors);
    setEncodeErrors(errors);
    if (!parsed.ok || errors.cookies || errors.url) {
      setEncoded(null);
      return;
    }
    const result = encode({ cookies, browser: parsed.browser, time: parsed.time, url: url || undefined, placement });
    if (!result.ok) {
      setEncodeErrors({ cookies: result.error });
      setEncoded(null);
      return;
    }
    setEncoded(result);
    report({ action: 'encode', request: { cookies, browser: parsed.browser, time: parsed.time, ...(url ? { url, placement } : {}) } });
    toast('Link generated.', 'success', TOAST);
  };

  /** "Decode it": the generated link goes through the decoder, in the Decode tab. */
  const decodeGenerated = () => {
    if (!encoded) return;
    const input = encoded.url ?? encoded.value;
    setLink(input);
    openTab('decode');
    runDecode(input);
  };

  return {
    tab,
    openTab,
    link,
    setLink,
    browser: browser ?? NO_BROWSER,
    setBrowser,
    browserErrors,
    decoded,
    verified,
    rows: rows ?? [],
    setRows,
    addRow: (kind?: CookiePreset) => {
      const row = newRow(kind ? preset(kind) : { key: '', value: '' });
      setRows((list) => [...(list ?? []), row]);
    },
    baseUrl,
    setBaseUrl,
    placement,
    setPlacement,
    encodeErrors,
    encoded,
    decodeLink,
    fillExample,
    verifyLink,
    encodeLink,
    decodeGenerated,
  };
}
