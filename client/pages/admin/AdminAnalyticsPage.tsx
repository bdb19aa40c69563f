import { PageHeader } from '../../components/PageHeader.js';
import { AnalyticsDashboard } from '../../features/analytics/components/AnalyticsDashboard.js';
import { ToolUsagePanel } from '../../features/tool-usage/components/ToolUsagePanel.js';

export default function AdminAnalyticsPage() {
  return (
    <>
      <PageHeader title={'Analytics'}>
        {'First-party, cookie-less analytics: page views, visitors, sources, sign-ups, orders and tool usage. Days are UTC.'}
      </PageHeader>
      <AnalyticsDashboard />
      <ToolUsagePanel />
    </>
  );
}
