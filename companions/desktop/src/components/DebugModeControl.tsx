import { useId, useState } from 'react';
import { useToast } from '../../../../client/components/Toaster.js';
import { backend } from '../backend.js';
import { useDesktop } from '../state/desktop-context.js';
import type { SourceView } from '../state/session.js';

/**
 * Firebase debug mode of an Android device, in one click: the app picks a package from those
 * installed (`pm list packages -3`) and sets `debug.firebase.analytics.app`; it is turned off again
 * when the app quits.
 */
export function DebugModeControl({ source }: { source: SourceView }) {
  const { store } = useDesktop();
  const toast = useToast();
  const id = useId();
  const [packages, setPackages] = useState<string[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const serial = source.serial!;

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  if (source.debugPackage === undefined) return <p className="desk-debug muted">Checking Firebase debug mode…</p>;
  if (source.debugPackage) {
    return (
      <div className="desk-debug desk-debug--on" data-testid="debug-mode">
        <span>
          Debug mode on for <code>{source.debugPackage}</code>
        </span>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() => void act(() => store.setDebugMode(serial, null))}
        >
          Turn off
        </button>
      </div>
    );
  }
  if (packages === null) {
    return (
      <div className="desk-debug" data-testid="debug-mode">
        <span>Firebase debug mode is off.</span>
        <button
          type="button"
          className="button button--small"
          disabled={busy}
          onClick={() =>
            void act(async () => {
              const list = await backend.listPackages(serial);
              setPackages(list);
              setChosen(list[0] ?? '');
            })
          }
        >
          Turn on…
        </button>
      </div>
    );
  }
  return (
    <form
      className="desk-debug desk-debug--pick"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen)
          void act(async () => {
            await store.setDebugMode(serial, chosen);
            setPackages(null);
            toast(`Debug mode on for ${chosen}: restart the app on the phone if it was running.`, 'success');
          });
      }}
    >
      <label htmlFor={`${id}-package`}>App</label>
      {packages.length ? (
        <select id={`${id}-package`} className="input" value={chosen} onChange={(event) => setChosen(event.target.value)}>
          {packages.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      ) : (
        <p className="muted">No app installed by you on this device.</p>
      )}
      <div className="desk-debug__actions">
        <button type="submit" className="button button--small button--primary" disabled={busy || !chosen}>
          Turn on
        </button>
        <button type="button" className="button button--small button--ghost" onClick={() => setPackages(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
