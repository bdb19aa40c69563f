import { useQuery } from '@tanstack/react-query';
import { useDataSource, useSiteSettings } from '../../app/data-source.js';
import { sponsorsQuery } from '../../app/queries.js';
import { SponsorContact, SponsorHero, SponsorList, SponsorTiers } from '../../features/marketing/components/SponsorSections.js';

/** Tiers and sponsors come from the site settings, prefetched by the route's loader (no spinner on first load). */
export default function SponsorPage() {
  const { siteName } = useSiteSettings();
  const sponsors = useQuery(sponsorsQuery(useDataSource()));
  return (
    <>
      <SponsorHero siteName={siteName} />
      {sponsors.isPending ? (
        <div className="section container" role="status" aria-busy="true" aria-label="Loading the sponsors">
          <div className="skeleton sponsor-skeleton" />
        </div>
      ) : sponsors.isError ? (
        <div className="section container">
          <div className="alert alert--error" role="alert">
            The tiers and sponsors could not be loaded.{' '}
            <button type="button" className="button button--small" onClick={() => void sponsors.refetch()}>
              Retry
            </button>
          </div>
        </div>
      ) : (
        <>
          <SponsorTiers tiers={sponsors.data.tiers} siteName={siteName} />
          <SponsorList sponsors={sponsors.data} siteName={siteName} />
        </>
      )}
      <SponsorContact siteName={siteName} />
    </>
  );
}
