import { PageHeader } from '../../components/PageHeader.js';
import { SubscribersAdmin } from '../../features/newsletter/components/SubscribersAdmin.js';

export default function AdminNewsletterPage() {
  return (
    <>
      <PageHeader title="Newsletter">Subscribers of the double opt-in list: search, filter by state, export.</PageHeader>
      <SubscribersAdmin />
    </>
  );
}
