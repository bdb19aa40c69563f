import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function ProfilePage() {
  return (
    <>
      <PageHeader title={"Profile"}>{"Your name, e-mail, password, avatar, colour mode and data."}</PageHeader>
      <UpcomingSection title={"Profile settings"}>{"Editing your profile, exporting your data and deleting your account live here."}</UpcomingSection>
    </>
  );
}
