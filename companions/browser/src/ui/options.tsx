import { type FormEvent, useId, useState } from 'react';
import type { LicenceState } from '../../../../lib/licensing/client.js';
import type { ColorMode } from '../../../../lib/client-constants.js';
import { SegmentedControl } from '../../../../client/components/SegmentedControl.js';
import { useToast } from '../../../../client/components/Toaster.js';
import { createLicenceClient } from '../shared/licence.js';
import { normaliseSiteUrl, saveSettings } from '../shared/settings.js';
import { useLicence } from './hooks/useLicence.js';
import { useSettings } from './hooks/useSettings.js';
import { useTheme } from './hooks/useTheme.js';
import { mount } from './mount.js';

const day = (ms: number) => new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

function describe(state: LicenceState): { title: string; detail: string; tone: 'ok' | 'info' | 'error' } {
  if (state.tier === 'paid') {
    if (state.mode === 'online' && state.offlineReason) {
      return {
        title: 'Licensed (offline)',
        detail: `The site could not be reached (${state.offlineReason}). The last confirmation is valid until ${day(state.expiresAt)}; the licence keeps working until ${day(state.graceUntil)}.`,
        tone: 'info',
      };
    }
    return state.mode === 'online'
      ? {
          title: 'Licensed',
          detail: `Plan ${state.plan}, ${state.seats} seats. Confirmed by the site; valid offline until ${day(state.expiresAt)}.`,
          tone: 'ok',
        }
      : {
          title: 'Licensed (offline)',
          detail: `The site could not be reached${state.offlineReason ? ` (${state.offlineReason})` : ''}. The licence keeps working until ${day(state.graceUntil)}.`,
          tone: 'info',
        };
  }
  switch (state.reason) {
    case 'none':
      return {
        title: 'Free',
        detail: 'No licence key entered. Capture, decoding, the dataLayer and the consent timeline work without one.',
        tone: 'info',
      };
    case 'denied':
      return { title: 'Not active', detail: `${state.detail}${state.code ? ` (${state.code})` : ''}`, tone: 'error' };
    case 'expired':
      return { title: 'Not confirmed for too long', detail: state.detail, tone: 'error' };
    case 'unverified':
      return { title: 'Not confirmed yet', detail: state.detail, tone: 'error' };
  }
}

function SiteForm({ siteUrl }: { siteUrl: string }) {
  const id = useId();
  const toast = useToast();
  const [value, setValue] = useState(siteUrl);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const origin = normaliseSiteUrl(value);
    if (!origin) {
      setProblem('Enter the address of your Hitscope site, e.g. https://hitscope.example.com (http only for localhost).');
      return;
    }
    // The site's host permission is asked for when it is set (Firefox grants none at install).
    const granted = await chrome.permissions.request({ origins: [`${origin}/*`] }).catch(() => false);
    if (!granted) {
      setProblem(`Hitscope needs permission to reach ${origin} to check your licence there.`);
      return;
    }
    setProblem(null);
    await saveSettings({ siteUrl: origin });
    toast(`Licences are checked against ${origin}`, 'success', { key: 'site' });
  };
  return (
    <form className="form options__form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="field">
        <label htmlFor={`${id}-site`}>Hitscope site</label>
        <input
          id={`${id}-site`}
          type="url"
          value={value}
          placeholder="https://hitscope.example.com"
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-site-hint${problem ? ` ${id}-site-error` : ''}`}
        />
        <p id={`${id}-site-hint`} className="field__hint">
          Where you bought the licence, or your own Hitscope server.
        </p>
        {problem ? (
          <p id={`${id}-site-error`} className="field__error" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button">
        Save site
      </button>
    </form>
  );
}

function LicenceSection({ siteUrl }: { siteUrl: string }) {
  const id = useId();
  const toast = useToast();
  const licence = useLicence(siteUrl || null);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (label: string, work: () => Promise<void>) => {
    setBusy(label);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };
  const activate = (event: FormEvent) => {
    event.preventDefault();
    void run('activate', async () => {
      const state = await (await createLicenceClient(siteUrl)).activate(key);
      if (state.tier === 'paid') {
        setKey('');
        toast('Licence activated on this browser', 'success', { key: 'licence' });
      }
    });
  };
  const state = licence.state;
  const shown = state ? describe(state) : null;
  return (
    <section className="card options__card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Licence</h2>
      {!siteUrl ? (
        <p className="muted">Set your Hitscope site above first: the key is checked there.</p>
      ) : (
        <>
          {shown ? (
            <div className={`licence-status licence-status--${shown.tone}`} role="status" data-testid="licence-status">
              <strong>{shown.title}</strong>
              <span>{shown.detail}</span>
              {state && state.tier !== 'free' ? <code className="licence-status__key">{state.key}</code> : null}
              {state && state.tier === 'free' && state.reason !== 'none' ? <code className="licence-status__key">{state.key}</code> : null}
            </div>
          ) : (
            <div className="skeleton options__skeleton" />
          )}
          <form className="form options__form" onSubmit={activate}>
            <div className="field">
              <label htmlFor={`${id}-key`}>Licence key</label>
              <input
                id={`${id}-key`}
                type="text"
                autoComplete="off"
                spellCheck={false}
                placeholder="HSB-XXXXX-XXXXX-XXXXX-XXXXX-X"
                value={key}
                onChange={(event) => setKey(event.target.value)}
              />
              <p className="field__hint">From your dashboard's Licences page. This browser takes one of the licence's seats.</p>
            </div>
            <div className="options__actions">
              <button type="submit" className="button button--primary" disabled={!key.trim() || busy !== null}>
                {busy === 'activate' ? 'Activating…' : 'Activate'}
              </button>
              <button
                type="button"
                className="button"
                disabled={busy !== null || !state || (state.tier === 'free' && state.reason === 'none')}
                onClick={() => void run('check', licence.refresh)}
              >
                {busy === 'check' ? 'Checking…' : 'Check now'}
              </button>
              <button
                type="button"
                className="button button--destructive"
                disabled={busy !== null || !state || (state.tier === 'free' && state.reason === 'none')}
                onClick={() =>
                  void run('deactivate', async () => {
                    const { error } = await (await createLicenceClient(siteUrl)).deactivate();
                    toast(error ? `Not deactivated: ${error}` : 'This browser’s seat is free again', error ? 'error' : 'success', {
                      key: 'licence',
                    });
                  })
                }
              >
                {busy === 'deactivate' ? 'Deactivating…' : 'Deactivate this browser'}
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}

function Options() {
  const settings = useSettings();
  useTheme(settings?.colorMode ?? 'system', false);
  const id = useId();
  if (!settings) return <div className="skeleton options__skeleton" />;
  return (
    <main className="options">
      <header className="options__header">
        <h1>Hitscope for Browsers</h1>
        <p className="muted">Version {chrome.runtime.getManifest().version}</p>
      </header>
      <section className="card options__card" aria-labelledby={`${id}-site`}>
        <h2 id={`${id}-site`}>Site</h2>
        <SiteForm key={settings.siteUrl} siteUrl={settings.siteUrl} />
      </section>
      <LicenceSection siteUrl={settings.siteUrl} />
      <section className="card options__card" aria-labelledby={`${id}-look`}>
        <h2 id={`${id}-look`}>Appearance</h2>
        <SegmentedControl<ColorMode>
          label="Colour mode"
          showLabel
          value={settings.colorMode}
          onChange={(colorMode) => void saveSettings({ colorMode })}
          options={[
            { value: 'system', label: 'System' },
            { value: 'light', label: 'Light' },
            { value: 'dark', label: 'Dark' },
          ]}
        />
      </section>
      <section className="card options__card" aria-labelledby={`${id}-free`}>
        <h2 id={`${id}-free`}>Free and licensed</h2>
        <ul className="options__features">
          <li>
            <strong>Free:</strong> capture of every tab (no DevTools needed), kept across reloads and navigations; every vendor decoded,
            batched and server-side GA4 included; the dataLayer and gtag calls; the consent timeline; filters and hit details.
          </li>
          <li>
            <strong>With a licence:</strong> validation (the HAR analyser's checks and the live ones) and export as HAR or CSV.
          </li>
        </ul>
      </section>
    </main>
  );
}

mount(<Options />);
