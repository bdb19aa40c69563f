import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useDataSource } from '../../../app/data-source.js';
import { licencesQuery } from '../../../app/queries.js';
import { AppLink } from '../../../components/AppLink.js';
import { plural } from '../format.js';
import '../licences.css';

export const LICENCES_PATH = '/dashboard/user/licenses';

/** The lounge's glance at the licences: how many are active, and the way to their keys and devices. */
export function LicencesGlance() {
  const id = useId();
  const { data, isPending, isError } = useQuery(licencesQuery(useDataSource()));
  // Valid, not only `active`: a past-due licence keeps working through its grace period.
  const active = data?.licences.filter((licence) => licence.valid).length ?? 0;
  let summary: string | null = null;
  if (isPending) summary = null;
  else if (isError) summary = 'Could not load your licences.';
  else if (data.licences.length === 0) summary = 'No licence yet';
  else if (active === 0) summary = `No active licence (${plural(data.licences.length, 'licence')} in total)`;
  else summary = plural(active, 'active licence');
  return (
    <section className="card licences-glance" aria-labelledby={`${id}-title`} aria-busy={isPending || undefined}>
      <div className="licences-glance__text">
        <h2 id={`${id}-title`} className="licences-glance__title">
          Licences
        </h2>
        {summary === null ? <div className="skeleton licences-glance__skeleton" /> : <p className="licences-glance__summary">{summary}</p>}
      </div>
      <AppLink to={LICENCES_PATH} className="button button--small" preloadOnVisible>
        {data && data.licences.length > 0 ? 'Keys and devices' : 'See licences'}
      </AppLink>
    </section>
  );
}
