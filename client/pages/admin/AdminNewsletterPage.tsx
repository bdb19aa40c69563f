import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function AdminNewsletterPage() {
  return (
    <>
      <PageHeader title="Newsletter">Subscribers, campaigns and delivery progress.</PageHeader>
      <UpcomingSection title="No subscribers yet">People who confirm their newsletter sign-up appear here.</UpcomingSection>
    </>
  );
}
