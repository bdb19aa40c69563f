import { ToolUsagePanel } from '../../features/tool-usage/components/ToolUsagePanel.js';
import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function AdminAnalyticsPage() {
  return (
    <>
      <PageHeader title={'Analytics'}>
        {'First-party, cookie-less analytics: page views, visitors, referrers, sign-ups, orders and tool usage.'}
      </PageHeader>
      <ToolUsagePanel />
      <UpcomingSection title={'Page views and visitors'}>
        {'Page views, visitors, referrers, sign-ups and orders are counted from the first visit after the analytics release.'}
      </UpcomingSection>
    </>
  );
}
