import { useId, useState } from 'react';
import type { CataloguePlan } from '../../../../lib/api/catalogue.js';
import type { DeviceActivation, OwnedLicence } from '../../../../lib/api/licences.js';
import { planName, statusText, termText } from '../format.js';
import { DeviceTable } from './DeviceTable.js';
import { LicenceKey } from './LicenceKey.js';
import { SeatUsage } from './SeatUsage.js';
import '../licences.css';

/** One licence: what it is, its state, its key, its seats and the devices holding them; `plans` name its plan. */
export function LicenceCard({ licence, plans }: { licence: OwnedLicence; plans?: readonly CataloguePlan[] }) {
  const id = useId();
  // The server forgets a deactivated device; it stays listed (as deactivated) until the page is left,
  // so the person sees what their click did rather than a row vanishing.
  const [deactivated, setDeactivated] = useState<DeviceActivation[]>([]);
  const listed = new Set(licence.activations.map((device) => device.id));
  const gone = deactivated.filter((device) => !listed.has(device.id));
  return (
    <article className="card licence" aria-labelledby={`${id}-title`}>
      <header className="licence__header">
        <div className="licence__heading">
          <h2 id={`${id}-title`} className="licence__title">
            {licence.productName}
          </h2>
          <p className="licence__plan muted">
            {[`${planName(licence.planId, plans)} plan`, termText(licence)].filter(Boolean).join(' · ')}
          </p>
        </div>
        <span className={`badge licence__status licence__status--${licence.status.replace('_', '-')}`}>{statusText(licence)}</span>
      </header>
      <div className="licence__facts">
        <LicenceKey licence={licence} />
        <SeatUsage used={licence.seatsUsed} allowed={licence.seats} labelId={`${id}-seats`} />
      </div>
      <DeviceTable
        licence={licence}
        deactivated={gone}
        onDeactivated={(device) => setDeactivated((list) => [...list.filter((item) => item.id !== device.id), device])}
      />
    </article>
  );
}
