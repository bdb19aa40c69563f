import { useQuery } from '@tanstack/react-query';
import { useDataSource } from '../../../app/data-source.js';
import { catalogueQuery, licencesQuery } from '../../../app/queries.js';
import { LicenceCard } from './LicenceCard.js';
import '../licences.css';

/**
 * The signed-in person's licences, one card each; or why there are none yet. `purchaseReturning`:
 * the page is following a purchase just paid (its own notice says the licences are coming), so
 * "no licences yet, see pricing" would contradict it.
 */
export function LicenceList({ purchaseReturning = false }: { purchaseReturning?: boolean }) {
  const source = useDataSource();
  const { data, isPending, isError, error, refetch, isFetching } = useQuery(licencesQuery(source));
  // Plan names only: a licence shows its plan's id while the catalogue is loading or unavailable.
  const catalogue = useQuery(catalogueQuery(source));

  if (isPending) return <LicencesSkeleton />;
  if (isError) {
    return (
      <div className="alert alert--error licences__error" role="alert">
        <span>Could not load your licences. {error instanceof Error ? error.message : ''}</span>
        <button type="button" className="button button--small" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? 'Retrying…' : 'Retry'}
        </button>
      </div>
    );
  }
  if (data.licences.length === 0) {
    if (purchaseReturning) return null;
    return (
      <section className="empty-state licences__empty" aria-labelledby="licences-empty-title">
        <h2 id="licences-empty-title">No licences yet</h2>
        <p>Licences you buy or are granted appear here with their keys and devices.</p>
        {/* A full page load: the home page's pricing is a server-rendered section, reached by its anchor. */}
        <a className="button button--primary" href="/#pricing-title">
          See pricing
        </a>
      </section>
    );
  }
  return (
    <ul className="licences" aria-label="Your licences">
      {data.licences.map((licence) => (
        <li key={licence.id}>
          <LicenceCard licence={licence} plans={catalogue.data?.plans} />
        </li>
      ))}
    </ul>
  );
}

function LicencesSkeleton() {
  return (
    <div className="card licences__loading" aria-busy="true" aria-label="Loading your licences">
      <div className="skeleton licences__skeleton-title" />
      <div className="skeleton licences__skeleton-line" />
      <div className="skeleton licences__skeleton-line" />
      <div className="skeleton licences__skeleton-block" />
    </div>
  );
}
