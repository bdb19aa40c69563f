import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function AdminUsersPage() {
  return (
    <>
      <PageHeader title={"Users"}>{"Search, filter and manage accounts: roles, status and sessions."}</PageHeader>
      <UpcomingSection title={"User management"}>{"The searchable user list appears here."}</UpcomingSection>
    </>
  );
}
