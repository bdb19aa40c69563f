import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function AdminOverviewPage() {
  return (
    <>
      <PageHeader title="Admin overview">Users, sign-ups, subscriptions, revenue, subscribers and page views at a glance.</PageHeader>
      <UpcomingSection title="Key figures">Site-wide figures appear here as soon as there is activity to count.</UpcomingSection>
    </>
  );
}
