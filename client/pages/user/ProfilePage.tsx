import { PageHeader } from '../../components/PageHeader.js';
import { ProfileSettings } from '../../features/profile/components/ProfileSettings.js';

export default function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile">Your name, e-mail, password, avatar and data.</PageHeader>
      <ProfileSettings />
    </>
  );
}
