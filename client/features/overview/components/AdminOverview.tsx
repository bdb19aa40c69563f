import { useAdminOverview } from '../hooks/useAdminOverview.js';
import { formatDateTime } from '../format.js';
import { AdminSections } from './AdminSections.js';
import { LicencesCard, NewsletterCard, PageViewsCard, RevenueCard, SubscriptionsCard, UsersCard, WebhooksCard } from './FigureCards.js';
import { MrrCard } from './MrrCard.js';
import '../overview.css';

/** The key figures of /admin in a responsive grid of cards, then links to the sections. */
export function AdminOverview() {
  const overview = useAdminOverview();
  return (
    <>
      <div className="overview-toolbar">
        <p className="overview-toolbar__as-of" aria-live="polite">
          {overview.data ? `Figures as of ${formatDateTime(overview.data.asOf)} (recomputed at most every 30 seconds).` : ' '}
        </p>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => void overview.refetch()}
          disabled={overview.isFetching}
        >
          {overview.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <div className="overview-grid">
        <UsersCard overview={overview} />
        <SubscriptionsCard overview={overview} />
        <MrrCard overview={overview} />
        <RevenueCard overview={overview} />
        <LicencesCard overview={overview} />
        <WebhooksCard overview={overview} />
        <PageViewsCard overview={overview} />
        <NewsletterCard overview={overview} />
      </div>
      <AdminSections />
    </>
  );
}
