import type { Event } from '@tauri-apps/api/event';
import { type DragDropEvent, getCurrentWebview } from '@tauri-apps/api/webview';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useToast } from '../../../client/components/Toaster.js';
import { DevicePanel } from './components/DevicePanel.js';
import { LicenceView } from './components/LicenceView.js';
import { RecordingsView } from './components/RecordingsView.js';
import { SettingsView } from './components/SettingsView.js';
import { StreamView } from './components/StreamView.js';
import { useDesktop, useSession } from './state/desktop-context.js';

type Tab = 'live' | 'recordings' | 'licence' | 'settings';
const TABS: { id: Tab; label: string }[] = [
  { id: 'live', label: 'Live' },
  { id: 'recordings', label: 'Recordings' },
  { id: 'licence', label: 'Licence' },
  { id: 'settings', label: 'Settings' },
];

function Mark() {
  return (
    <svg width="26" height="26" viewBox="0 0 32 32" aria-hidden="true">
      <circle cx="16" cy="16" r="13" fill="none" stroke="currentColor" strokeWidth="3" />
      <circle cx="16" cy="16" r="4" fill="var(--accent)" />
      <path d="M16 1v7M16 24v7M1 16h7M24 16h7" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** Files dropped on the window are read like opened ones (the system gives their paths). */
function useFileDrop(onPaths: (paths: string[]) => void) {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    void getCurrentWebview()
      .onDragDropEvent((event: Event<DragDropEvent>) => {
        if (event.payload.type === 'enter' || event.payload.type === 'over') setOver(true);
        else if (event.payload.type === 'leave') setOver(false);
        else if (event.payload.type === 'drop') {
          setOver(false);
          onPaths(event.payload.paths);
        }
      })
      .then((unlisten) => (cancelled ? unlisten() : (stop = unlisten)));
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [onPaths]);
  return over;
}

export function App() {
  const { store, licence } = useDesktop();
  const session = useSession();
  const toast = useToast();
  const [tab, setTab] = useState<Tab>('live');
  const paid = useRef(licence.paid);
  useEffect(() => {
    paid.current = licence.paid;
  }, [licence.paid]);
  const dropPaths = useCallback(
    (paths: string[]) => {
      void (async () => {
        for (const path of paths) {
          const open = store.getSnapshot().sources.filter((source) => source.open).length;
          if (open > 0 && !paid.current) {
            toast('Several sources at once need a licence: stop the one being watched first.', 'error');
            return;
          }
          await store.start({ kind: 'file', path }).catch((error: Error) => toast(error.message, 'error'));
        }
        setTab('live');
      })();
    },
    [store, toast],
  );
  const dragging = useFileDrop(dropPaths);

  const live = session.viewing.kind === 'live';
  const streaming = session.sources.filter((source) => source.state === 'streaming' && source.open).length;
  return (
    <div className="desk">
      <header className="desk-bar">
        <div className="desk-bar__brand">
          <Mark />
          <span>Hitscope for Apps</span>
        </div>
        <nav className="desk-tabs" aria-label="Sections">
          {TABS.map((each) => (
            <button
              key={each.id}
              type="button"
              className={`desk-tab${tab === each.id ? ' desk-tab--active' : ''}`}
              aria-current={tab === each.id ? 'page' : undefined}
              onClick={() => setTab(each.id)}
            >
              {each.label}
            </button>
          ))}
        </nav>
        <div className="desk-bar__status">
          {live ? (
            streaming ? (
              <span className="desk-rec" data-testid="recording-indicator">
                <span className="desk-rec__dot" aria-hidden="true" /> Recording · {streaming} live
              </span>
            ) : null
          ) : (
            <button type="button" className="button button--small" onClick={() => store.closeRecording()}>
              Close recording
            </button>
          )}
          {live && session.sources.length ? (
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => void store.newSession()}
              title="Clear the stream; what follows is a new recording"
            >
              New session
            </button>
          ) : null}
          <button
            type="button"
            className={`badge desk-tier${licence.paid ? ' desk-tier--paid' : ''}`}
            onClick={() => setTab('licence')}
            data-testid="tier"
          >
            {licence.paid ? 'Licensed' : 'Free'}
          </button>
        </div>
      </header>
      <div className="desk-body">
        <DevicePanel />
        <main className="desk-content">
          {/* Kept mounted: filters, selection and scroll survive a look at another section. */}
          <div className="desk-tabpanel" hidden={tab !== 'live'}>
            <StreamView />
          </div>
          {tab === 'recordings' ? <RecordingsView onOpened={() => setTab('live')} /> : null}
          {tab === 'licence' ? <LicenceView onSettings={() => setTab('settings')} /> : null}
          {tab === 'settings' ? <SettingsView /> : null}
        </main>
      </div>
      {dragging ? (
        <div className="desk-drop" aria-hidden="true">
          Drop a log file to decode it
        </div>
      ) : null}
    </div>
  );
}
