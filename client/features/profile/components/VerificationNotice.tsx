import { useSearchParams } from 'react-router';
import { parseVerifiedParam, VERIFIED_PARAM } from '../../../../lib/api/auth.js';
import type { ProfileResponse } from '../../../../lib/api/profile.js';
import { formErrorMessage } from '../../../components/FormAlert.js';
import { useResendVerification } from '../api.js';
import '../profile.css';

/**
 * Whether the account's address is confirmed: after following the link in a verification e-mail
 * (`?verified=1` or `0`), and for as long as it is not. Sending a new link answers in place.
 */
export function VerificationNotice({ profile }: { profile: ProfileResponse }) {
  const [params] = useSearchParams();
  const verified = parseVerifiedParam(params.get(VERIFIED_PARAM));
  const resend = useResendVerification();

  if (verified === true) {
    return (
      <div className="alert alert--info profile__notice" role="status">
        Your e-mail address is confirmed. Thank you!
      </div>
    );
  }
  if (verified === null && profile.emailVerified) return null;
  if (verified === false && profile.emailVerified) {
    // The current address is confirmed already: a new link for it would confirm nothing.
    return (
      <div className="alert alert--info profile__notice" role="status">
        <p className="profile__notice-text">
          That confirmation link has expired or was already used. {profile.email} is confirmed
          {profile.pendingEmail ? `; to confirm ${profile.pendingEmail}, change your e-mail address again below for a new link.` : '.'}
        </p>
      </div>
    );
  }
  if (resend.isSuccess) {
    return (
      <div className="alert alert--info profile__notice" role="status">
        {resend.data.message}
      </div>
    );
  }
  const failed = verified === false;
  return (
    <div className={`alert ${failed ? 'alert--error' : 'alert--info'} profile__notice`} role={failed ? 'alert' : 'status'}>
      <p className="profile__notice-text">
        {failed ? 'That confirmation link has expired or was already used.' : `Please confirm ${profile.email}: we sent you a link.`}
      </p>
      <button type="button" className="button button--small" onClick={() => resend.mutate()} disabled={resend.isPending}>
        {resend.isPending ? 'Sending…' : 'Send a new link'}
      </button>
      {resend.isError ? (
        <p className="profile__notice-error" role="alert">
          {formErrorMessage(resend.error) ?? 'Could not send the link. Try again.'}
        </p>
      ) : null}
    </div>
  );
}
