import { PageHeader } from '../../components/PageHeader.js';
import { CampaignsAdmin } from '../../features/newsletter/components/CampaignsAdmin.js';
import { SubscribersAdmin } from '../../features/newsletter/components/SubscribersAdmin.js';

/** Campaigns (list, compose, progress: the view is in `?campaign=`), then the subscriber list. */
export default function AdminNewsletterPage() {
  return (
    <>
      <PageHeader title="Newsletter">
        Campaigns to confirmed subscribers, with live progress, and the double opt-in list: search, filter by state, export.
      </PageHeader>
      <div className="newsletter-admin">
        <CampaignsAdmin />
        <SubscribersAdmin />
      </div>
    </>
  );
}
