import { formErrorMessage } from '../../../components/FormAlert.js';
import { useSendPasswordLink } from '../api.js';
import '../profile.css';

/**
 * Accounts made through an OpenID provider have no password until the owner sets one with a link
 * sent to their address (the reset flow), which also proves they still own it.
 */
export function SetPasswordSection({ email }: { email: string }) {
  const send = useSendPasswordLink();
  return (
    <section className="form" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <div className="alert alert--info set-password">
        <p className="set-password__text">
          You sign in through your identity provider, so this account has no password. To sign in with your e-mail address or change it, set
          a password first.
        </p>
        {send.isSuccess ? (
          <p className="set-password__text" role="status">
            We sent a link to {email}: follow it to set your password.
          </p>
        ) : (
          <div>
            <button type="button" className="button button--small" onClick={() => send.mutate({ email })} disabled={send.isPending}>
              {send.isPending ? 'Sending…' : 'E-mail me a link to set a password'}
            </button>
          </div>
        )}
        {send.isError ? (
          <p className="set-password__text" role="alert">
            {formErrorMessage(send.error) ?? 'Could not send the link. Try again.'}
          </p>
        ) : null}
      </div>
    </section>
  );
}
