import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { LicenceClient, LicenceState } from '../../../../lib/licensing/client.js';
import { backend } from '../backend.js';
import { createLicenceClient } from '../licence/licence.js';
import type { AppInfo, Settings } from '../types.js';
import { SessionStore, type Snapshot } from './session.js';

/** How often a running app asks the site about its licence (the client also checks when it is due). */
const LICENCE_CHECK_EVERY_MS = 6 * 60 * 60 * 1000;

export interface LicenceApi {
  state: LicenceState | null;
  /** What is being done: `activate`, `validate`, `deactivate`; null when idle. */
  busy: string | null;
  /** The last problem (offline deactivation, unreachable site …). */
  error: string | null;
  paid: boolean;
  activate(key: string): Promise<LicenceState | null>;
  validate(): Promise<void>;
  deactivate(): Promise<void>;
  forget(): Promise<void>;
}

interface DesktopContextValue {
  store: SessionStore;
  info: AppInfo;
  settings: Settings;
  saveSettings(next: Settings): Promise<void>;
  licence: LicenceApi;
}

const DesktopContext = createContext<DesktopContextValue | null>(null);

export function useDesktop(): DesktopContextValue {
  const value = useContext(DesktopContext);
  if (!value) throw new Error('useDesktop outside DesktopProvider');
  return value;
}

export function useSession(): Snapshot {
  const { store } = useDesktop();
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

function applyColorMode(mode: Settings['colorMode']) {
  const root = document.documentElement;
  if (mode === 'system') delete root.dataset.theme;
  else root.dataset.theme = mode;
}

function useLicence(settings: Settings, info: AppInfo): LicenceApi {
  const [state, setState] = useState<LicenceState | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const client = useRef<Promise<LicenceClient> | null>(null);

  const run = useCallback(async <T,>(what: string, work: (client: LicenceClient) => Promise<T>): Promise<T | null> => {
    if (!client.current) return null;
    setBusy(what);
    setError(null);
    try {
      return await work(await client.current);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      return null;
    } finally {
      setBusy(null);
    }
  }, []);

  useEffect(() => {
    let live = true;
    client.current = createLicenceClient(settings.siteUrl, info);
    const refresh = async (force: boolean) => {
      const licence = await client.current!;
      if (live) setState(await licence.state());
      if (force || (await licence.refreshDue())) {
        const next = await licence.validate();
        if (live) setState(next);
      }
    };
    void refresh(false).catch((failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)));
    const timer = setInterval(() => void refresh(true).catch(() => undefined), LICENCE_CHECK_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [settings.siteUrl, info]);

  return useMemo<LicenceApi>(
    () => ({
      state,
      busy,
      error,
      paid: state?.tier === 'paid',
      activate: async (key) => {
        const next = await run('activate', (licence) => licence.activate(key));
        if (next) setState(next);
        return next;
      },
      validate: async () => {
        const next = await run('validate', (licence) => licence.validate());
        if (next) setState(next);
      },
      deactivate: async () => {
        const result = await run('deactivate', (licence) => licence.deactivate());
        if (result) {
          setState(result.state);
          if (result.error) setError(result.error);
        }
      },
      forget: async () => {
        await run('forget', (licence) => licence.forget());
        setState({ tier: 'free', reason: 'none' });
      },
    }),
    [state, busy, error, run],
  );
}

export function DesktopProvider({ info, initialSettings, children }: { info: AppInfo; initialSettings: Settings; children: ReactNode }) {
  const [store] = useState(() => new SessionStore());
  const [settings, setSettings] = useState(initialSettings);
  const licence = useLicence(settings, info);

  useEffect(() => {
    void store.connect();
  }, [store]);
  useEffect(() => applyColorMode(settings.colorMode), [settings.colorMode]);

  const saveSettings = useCallback(async (next: Settings) => {
    setSettings(await backend.saveSettings(next));
  }, []);

  const value = useMemo(() => ({ store, info, settings, saveSettings, licence }), [store, info, settings, saveSettings, licence]);
  return <DesktopContext.Provider value={value}>{children}</DesktopContext.Provider>;
}
