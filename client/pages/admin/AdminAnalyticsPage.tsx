import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function AdminAnalyticsPage() {
  return (
    <>
      <PageHeader title={"Analytics"}>{"First-party, cookie-less analytics: page views, visitors, referrers, sign-ups, orders and tool usage."}</PageHeader>
      <UpcomingSection title={"No data for this range"}>{"Page views are counted from the first visit after this release."}</UpcomingSection>
    </>
  );
}
