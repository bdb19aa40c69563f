import { PageHeader } from '../../components/PageHeader.js';
import { AdminOverview } from '../../features/overview/components/AdminOverview.js';

export default function AdminOverviewPage() {
  return (
    <>
      <PageHeader title="Admin overview">Users, sign-ups, subscriptions, revenue, licences and webhooks at a glance.</PageHeader>
      <AdminOverview />
    </>
  );
}
