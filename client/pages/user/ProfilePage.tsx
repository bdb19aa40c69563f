import { useSearchParams } from 'react-router';
import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';
import { useToast } from '../../components/Toaster.js';
import { api, ApiError } from '../../lib/api.js';
import { useMe } from '../../lib/data-source-context.js';

/** Shown after following the link in the verification e-mail (`?verified=1` or `0`). */
function VerificationNotice() {
  const [params] = useSearchParams();
  const toast = useToast();
  const verified = params.get('verified');
  if (verified === null) return null;
  const resend = async () => {
    try {
      const answer = await api<{ message: string }>('/api/auth/verify-email/resend', { method: 'POST' });
      toast(answer.message, 'success');
    } catch (error) {
      toast(error instanceof ApiError ? error.message : 'Could not send the link. Try again.', 'error');
    }
  };
  return verified === '1' ? (
    <div className="alert alert--info" role="status" style={{ marginBottom: '1.5rem' }}>
      Your e-mail address is confirmed. Thank you!
    </div>
  ) : (
    <div className="alert alert--error" role="alert" style={{ marginBottom: '1.5rem' }}>
      That confirmation link has expired or was already used.{' '}
      <button type="button" className="button button--small" onClick={() => void resend()}>
        Send a new link
      </button>
    </div>
  );
}

export default function ProfilePage() {
  const me = useMe();
  return (
    <>
      <PageHeader title="Profile">Your name, e-mail, password, avatar, colour mode and data.</PageHeader>
      <VerificationNotice />
      {me ? (
        <section className="card" aria-labelledby="account-title" style={{ marginBottom: '1.5rem' }}>
          <h2 id="account-title">Account</h2>
          <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.5rem 1.5rem', margin: 0 }}>
            <dt className="muted">Name</dt>
            <dd style={{ margin: 0 }}>{me.name}</dd>
            <dt className="muted">E-mail</dt>
            <dd style={{ margin: 0 }}>{me.email}</dd>
            <dt className="muted">Role</dt>
            <dd style={{ margin: 0 }}>{me.role === 'admin' ? 'Administrator' : 'Member'}</dd>
          </dl>
        </section>
      ) : null}
      <UpcomingSection title="Profile settings">Editing your profile, exporting your data and deleting your account live here.</UpcomingSection>
    </>
  );
}
