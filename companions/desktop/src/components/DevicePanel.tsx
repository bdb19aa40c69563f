import { open } from '@tauri-apps/plugin-dialog';
import { Icon } from '../../../../client/components/Icon.js';
import { useToast } from '../../../../client/components/Toaster.js';
import { useDesktop, useSession } from '../state/desktop-context.js';
import type { SourceView } from '../state/session.js';
import type { Device, SourceSpec } from '../types.js';
import { DebugModeControl } from './DebugModeControl.js';
import { SOURCE_STATE_LABELS, stateTone } from './format.js';

const KIND_LABELS: Record<Device['kind'], string> = { phone: 'Phone', emulator: 'Emulator', simulator: 'Simulator' };

function specOf(device: Device): SourceSpec {
  if (device.platform === 'android') return { kind: 'android', serial: device.serial, name: device.name };
  return device.kind === 'simulator'
    ? { kind: 'simulator', udid: device.serial, name: device.name }
    : { kind: 'ios', udid: device.serial, name: device.name };
}

/** Says why a device cannot be watched yet, in the words a person can act on. */
function deviceNote(device: Device): string | null {
  switch (device.state) {
    case 'ready':
      return null;
    case 'unauthorized':
      return 'Unauthorised: accept “Allow USB debugging?” on the phone.';
    case 'untrusted':
      return 'Not trusted: unlock the iPhone and tap “Trust”.';
    case 'offline':
      return 'Offline: adb sees it but cannot talk to it yet. Replug the cable.';
    case 'no-permissions':
      return `No permission to use the USB device (${device.detail ?? 'udev rules'}).`;
    default:
      return device.detail;
  }
}

function ToolNotices() {
  const { devices } = useSession();
  if (!devices) return null;
  const { adb, ios, simctl } = devices.tools;
  return (
    <>
      {!adb.path ? (
        <div className="alert alert--error desk-tool" role="alert" data-testid="adb-missing">
          <strong>adb not found.</strong> Android devices need Android SDK Platform-Tools: install them (or Android Studio) and make sure{' '}
          <code>adb</code> is on your PATH, or set its path in Settings.
        </div>
      ) : adb.error ? (
        <div className="alert alert--error desk-tool" role="alert">
          <strong>adb is not answering.</strong> {adb.error}
        </div>
      ) : null}
      {!ios.path ? (
        <p className="desk-tool muted">
          iOS devices need libimobiledevice (<code>idevicesyslog</code>): <code>apt install libimobiledevice-utils</code> or{' '}
          <code>brew install libimobiledevice</code>.
        </p>
      ) : ios.error ? (
        <p className="desk-tool muted">iOS devices: {ios.error}</p>
      ) : null}
      {simctl && !simctl.path ? <p className="desk-tool muted">iOS simulators need Xcode (xcrun simctl).</p> : null}
    </>
  );
}

function SourceRow({ source }: { source: SourceView }) {
  const { store } = useDesktop();
  const toast = useToast();
  const tone = stateTone(source.state);
  return (
    <li className="desk-source" data-testid="source" data-state={source.state}>
      <div className="desk-source__head">
        <span className="desk-source__name">{source.label}</span>
        <span className={`badge desk-state desk-state--${tone}`}>{SOURCE_STATE_LABELS[source.state]}</span>
      </div>
      {source.message ? <p className="desk-source__message">{source.message}</p> : null}
      {source.summary ? (
        <p className="desk-source__counts muted">
          {source.summary.events} events · {source.summary.issues} issues
        </p>
      ) : null}
      {source.kind === 'android' && source.serial && source.open ? <DebugModeControl source={source} /> : null}
      {source.open && source.kind !== 'file' ? (
        <div className="desk-source__actions">
          <button
            type="button"
            className="button button--small"
            onClick={() => store.stop(source.id).catch((error: Error) => toast(error.message, 'error'))}
          >
            Stop watching
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** The left column: devices as they come and go, what is being watched, and log files. */
export function DevicePanel() {
  const { store, licence } = useDesktop();
  const session = useSession();
  const toast = useToast();
  const recording = session.viewing.kind === 'recording';
  const watched = session.sources.filter((source) => source.open && !recording);
  const canAdd = licence.paid || watched.length === 0;
  const watching = (device: Device) => watched.some((source) => source.deviceId === device.id);

  const start = async (spec: SourceSpec) => {
    try {
      await store.start(spec);
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    }
  };

  const openFile = async () => {
    const chosen = await open({
      multiple: licence.paid,
      title: 'Open a log file',
      filters: [
        { name: 'Logs', extensions: ['txt', 'log'] },
        { name: 'All files', extensions: ['*'] },
      ],
    });
    const paths = chosen === null ? [] : Array.isArray(chosen) ? chosen : [chosen];
    for (const path of paths) await start({ kind: 'file', path });
  };

  const devices = session.devices?.devices ?? [];
  return (
    <aside className="desk-side" aria-label="Devices and sources">
      <section className="desk-side__section" aria-labelledby="devices-heading">
        <h2 id="devices-heading" className="desk-side__title">
          Devices
        </h2>
        <ToolNotices />
        {session.devices === null ? (
          <p className="muted">Looking for devices…</p>
        ) : devices.length === 0 ? (
          <div className="desk-empty-devices" data-testid="no-device">
            <p>
              <strong>No device connected.</strong>
            </p>
            <p className="muted">
              Plug in an Android phone with USB debugging on, start an emulator, or connect an iPhone. It shows here the moment it is ready.
            </p>
          </div>
        ) : (
          <ul className="desk-devices">
            {devices.map((device) => {
              const note = deviceNote(device);
              const busy = watching(device);
              return (
                <li key={device.id} className="desk-device" data-testid="device" data-device-id={device.id}>
                  <Icon name="phone" size={18} />
                  <div className="desk-device__text">
                    <span className="desk-device__name">{device.name}</span>
                    <span className="muted">
                      {device.platform === 'android' ? 'Android' : 'iOS'} {KIND_LABELS[device.kind].toLowerCase()} · {device.serial}
                    </span>
                    {note ? <span className="desk-device__note">{note}</span> : null}
                  </div>
                  <button
                    type="button"
                    className="button button--small button--primary"
                    disabled={busy || device.state !== 'ready' || !canAdd}
                    title={!canAdd ? 'Watching several devices at once needs a licence.' : undefined}
                    onClick={() => void start(specOf(device))}
                  >
                    {busy ? 'Watching' : 'Watch'}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {!canAdd ? <p className="desk-upsell muted">Several devices at once: with a licence (see Licence).</p> : null}
      </section>

      <section className="desk-side__section" aria-labelledby="file-heading">
        <h2 id="file-heading" className="desk-side__title">
          Log files
        </h2>
        <button type="button" className="button button--small" disabled={!canAdd} onClick={() => void openFile()}>
          Open a log file…
        </button>
        <p className="muted desk-hint">Or drop one on the window: adb logcat, Android Studio, Xcode or Console output.</p>
      </section>

      {session.sources.length ? (
        <section className="desk-side__section" aria-labelledby="sources-heading">
          <h2 id="sources-heading" className="desk-side__title">
            {recording ? 'In this recording' : 'Watching'}
          </h2>
          <ul className="desk-sources">
            {session.sources.map((source) => (
              <SourceRow key={source.id} source={source} />
            ))}
          </ul>
        </section>
      ) : null}
    </aside>
  );
}
