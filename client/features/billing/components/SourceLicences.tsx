import type { LicenceStatus, OwnedLicence } from '../../../../lib/api/licences.js';
import { AppLink } from '../../../components/AppLink.js';
import type { Tone } from '../format.js';
import { StatusBadge } from './StatusBadge.js';

const LICENCE_STATUS: Record<LicenceStatus, { label: string; tone: Tone }> = {
  active: { label: 'Active', tone: 'good' },
  past_due: { label: 'Past due', tone: 'warn' },
  suspended: { label: 'Suspended', tone: 'warn' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'bad' },
};

/**
 * The licences a purchase or subscription gave (matched by their source), each with its product, the
 * end of its key and its state; the keys themselves are on the licences page.
 */
export function SourceLicences({ licences, sourceId }: { licences: readonly OwnedLicence[] | undefined; sourceId: string }) {
  if (!licences) return null;
  const own = licences.filter((licence) => licence.sourceId === sourceId && licence.status !== 'revoked');
  const shown = own.length ? own : licences.filter((licence) => licence.sourceId === sourceId);
  return (
    <div className="billing-licences">
      <h3 className="billing-licences__title">Licences</h3>
      {shown.length ? (
        <ul className="billing-licences__list">
          {shown.map((licence) => {
            const status = LICENCE_STATUS[licence.status];
            return (
              <li key={licence.id} className="billing-licences__item">
                <span className="billing-licences__product">{licence.productName}</span>
                <span className="billing-licences__state">
                  <code className="billing-licences__key" title="The end of the key; the whole key is on the licences page">
                    …{licence.keyHint}
                  </code>
                  <StatusBadge label={status.label} tone={status.tone} />
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="billing-licences__none">No licence yet: it appears here as soon as the payment is confirmed.</p>
      )}
      <AppLink to="/dashboard/user/licenses" className="billing-licences__link">
        Keys and devices
      </AppLink>
    </div>
  );
}
