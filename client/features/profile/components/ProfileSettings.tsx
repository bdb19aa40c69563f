import { useQuery } from '@tanstack/react-query';
import { profileQuery } from '../api.js';
import { AccountDataSection } from './AccountDataSection.js';
import { AvatarForm } from './AvatarForm.js';
import { DetailsForm } from './DetailsForm.js';
import { EmailForm } from './EmailForm.js';
import { PasswordForm } from './PasswordForm.js';
import { SetPasswordSection } from './SetPasswordSection.js';
import { VerificationNotice } from './VerificationNotice.js';
import '../profile.css';

/** Every section of the profile, once it has loaded. */
export function ProfileSettings() {
  const { data: profile, isPending, isError, refetch } = useQuery(profileQuery);
  if (isPending) {
    return (
      <div className="card profile__loading" aria-busy="true" aria-label="Loading your profile">
        <div className="skeleton profile__skeleton-title" />
        <div className="skeleton profile__skeleton-field" />
        <div className="skeleton profile__skeleton-field" />
      </div>
    );
  }
  if (isError) {
    return (
      <div className="alert alert--error" role="alert">
        Could not load your profile.{' '}
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <>
      <VerificationNotice profile={profile} />
      <div className="profile">
        <div className="card">
          <DetailsForm profile={profile} />
        </div>
        <div className="card">
          <AvatarForm profile={profile} />
        </div>
        <div className="card">
          <EmailForm profile={profile} />
        </div>
        <div className="card">{profile.hasPassword ? <PasswordForm /> : <SetPasswordSection email={profile.email} />}</div>
        <div className="card">
          <AccountDataSection hasPassword={profile.hasPassword} />
        </div>
      </div>
    </>
  );
}
