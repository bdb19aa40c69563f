import '../auth.css';

/**
 * The sign-in screen reached from the link in a verification e-mail (`?verified=1` or `0`) in a
 * browser that is not signed in: it says what happened before asking for a password.
 */
export function EmailVerifiedNotice({ verified }: { verified: boolean }) {
  return verified ? (
    <div className="alert alert--info auth-card__notice" role="status">
      Your e-mail address is confirmed. Sign in to continue.
    </div>
  ) : (
    <div className="alert alert--error auth-card__notice" role="status">
      That confirmation link has expired or was already used. Sign in and send yourself a new one from your profile.
    </div>
  );
}
