import { useRef, useState } from 'react';
import type { DeviceActivation, OwnedLicence } from '../../../../lib/api/licences.js';
import { deviceName, formatDateTime, formatRelative } from '../format.js';
import { DeactivateDialog } from './DeactivateDialog.js';
import '../licences.css';

type DeviceState = 'active' | 'released' | 'deactivated';

const STATE_LABELS: Record<DeviceState, string> = {
  active: 'Active',
  released: 'Released',
  deactivated: 'Deactivated',
};

const STATE_TITLES: Record<DeviceState, string> = {
  active: 'Holds a seat',
  released: 'Unseen for 30 days: its seat went back to the licence',
  deactivated: 'Deactivated: its seat is free',
};

interface Props {
  licence: OwnedLicence;
  /** Devices deactivated on this page: the server no longer lists them. */
  deactivated: DeviceActivation[];
  onDeactivated: (device: DeviceActivation) => void;
}

/** The devices that activated the licence, with a way to free the seat of one (a lost laptop). */
export function DeviceTable({ licence, deactivated, onDeactivated }: Props) {
  const [confirming, setConfirming] = useState<DeviceActivation | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const rows: Array<{ device: DeviceActivation; state: DeviceState }> = [
    ...licence.activations.map((device) => ({ device, state: device.released ? ('released' as const) : ('active' as const) })),
    ...deactivated.map((device) => ({ device, state: 'deactivated' as const })),
  ];

  return (
    <section className="licence__devices" aria-label={`Devices of ${licence.productName}`}>
      <h3 ref={heading} tabIndex={-1} className="licence__devices-title">
        Devices
      </h3>
      {rows.length === 0 ? (
        <p className="muted licence__no-devices">No devices yet. Enter the key in {licence.productName} to activate it on a device.</p>
      ) : (
        <div className="table-wrap licence__table-wrap">
          <table className="table table--stack licence__table">
            <caption className="visually-hidden">Devices activated with the {licence.productName} licence</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Platform</th>
                <th scope="col">App version</th>
                <th scope="col">Last seen</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ device, state }) => (
                <tr key={device.id} className={state === 'active' ? undefined : 'licence__device--inactive'}>
                  <td data-label="Device" className="licence__device-name">
                    {deviceName(device)}
                  </td>
                  <td data-label="Platform">{device.platform || '—'}</td>
                  <td data-label="App version" className="licence__nowrap">
                    {device.appVersion ? <span className="licence__device-version">{device.appVersion}</span> : '—'}
                  </td>
                  <td data-label="Last seen" className="licence__nowrap">
                    {/* Relative to the moment of rendering: the browser's text may be a minute on from the server's. */}
                    <time dateTime={device.lastSeenAt} title={formatDateTime(device.lastSeenAt)} suppressHydrationWarning>
                      {formatRelative(device.lastSeenAt)}
                    </time>
                  </td>
                  <td data-label="Status" className="licence__nowrap">
                    <span className={`badge licence__device-state licence__device-state--${state}`} title={STATE_TITLES[state]}>
                      {STATE_LABELS[state]}
                    </span>
                  </td>
                  <td className="licence__device-actions licence__nowrap">
                    {state === 'active' ? (
                      <button
                        type="button"
                        className="button button--small"
                        aria-haspopup="dialog"
                        onClick={(event) => {
                          opener.current = event.currentTarget;
                          setConfirming(device);
                        }}
                      >
                        Deactivate<span className="visually-hidden"> {deviceName(device)}</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirming ? (
        <DeactivateDialog
          licence={licence}
          device={confirming}
          onClose={() => setConfirming(null)}
          onDeactivated={() => {
            setConfirming(null);
            onDeactivated(confirming);
          }}
          // A deactivated device's row has no button left: the focus goes to the devices' heading instead.
          returnFocus={() => (opener.current?.isConnected ? opener.current : heading.current)}
        />
      ) : null}
    </section>
  );
}
