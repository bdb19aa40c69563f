import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.js';
import { FormField } from '../../components/FormField.js';
import { useToast } from '../../components/Toaster.js';
import { api, ApiError } from '../../app/api-client.js';
import { useDataSource } from '../../app/data-source.js';
import { meQuery } from '../../app/queries.js';

interface Profile {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  /** False when the account signs in only through an OpenID Connect provider. */
  hasPassword: boolean;
  pendingEmail: string | null;
  newsletterOptIn: boolean;
  avatarUrl: string | null;
  createdAt: string;
}

const profileQuery = { queryKey: ['profile'] as const, queryFn: () => api<Profile>('/api/profile') };

function useProfileMutation<TBody>(path: string, method: 'PATCH' | 'POST' | 'DELETE', success: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const data = useDataSource();
  return useMutation({
    mutationFn: (body: TBody) => api<Profile>(path, { method, body }),
    onSuccess: (profile) => {
      if (profile && 'email' in profile) {
        queryClient.setQueryData(profileQuery.queryKey, profile);
        void queryClient.invalidateQueries({ queryKey: meQuery(data).queryKey });
      }
      toast(success, 'success');
    },
    onError: (error) => toast(error.message, 'error'),
  });
}

/** Shown after following the link in a verification e-mail (`?verified=1` or `0`). */
function VerificationNotice({ profile }: { profile: Profile }) {
  const [params] = useSearchParams();
  const toast = useToast();
  const verified = params.get('verified');
  const resend = async () => {
    try {
      toast((await api<{ message: string }>('/api/auth/verify-email/resend', { method: 'POST' })).message, 'success');
    } catch (error) {
      toast(error instanceof ApiError ? error.message : 'Could not send the link. Try again.', 'error');
    }
  };
  if (verified === '1') {
    return (
      <div className="alert alert--info" role="status" style={{ marginBottom: '1.5rem' }}>
        Your e-mail address is confirmed. Thank you!
      </div>
    );
  }
  if (verified === '0' || !profile.emailVerified) {
    return (
      <div
        className={`alert ${verified === '0' ? 'alert--error' : 'alert--info'}`}
        role={verified === '0' ? 'alert' : 'status'}
        style={{ marginBottom: '1.5rem' }}
      >
        {verified === '0'
          ? 'That confirmation link has expired or was already used. '
          : `Please confirm ${profile.email}: we sent you a link. `}
        <button type="button" className="button button--small" onClick={() => void resend()}>
          Send a new link
        </button>
      </div>
    );
  }
  return null;
}

function DetailsForm({ profile }: { profile: Profile }) {
  const save = useProfileMutation<{ name: string; newsletterOptIn: boolean }>('/api/profile', 'PATCH', 'Profile saved');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    save.mutate({ name: String(form.get('name') ?? ''), newsletterOptIn: form.get('newsletter') === 'on' });
  };
  const fields = save.error instanceof ApiError ? save.error.fields : {};
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="details-title">
      <h2 id="details-title">Details</h2>
      <FormField label="Name" name="name" defaultValue={profile.name} required maxLength={100} autoComplete="name" errors={fields.name} />
      <label className="checkbox">
        <input type="checkbox" name="newsletter" defaultChecked={profile.newsletterOptIn} />
        <span>Send me the occasional newsletter about GA4 and tagging.</span>
      </label>
      <div>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save details'}
        </button>
      </div>
    </form>
  );
}

function AvatarForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const upload = async (file: File) => {
    setPending(true);
    try {
      const body = new FormData();
      body.append('avatar', file);
      const token = ((await (await fetch('/api/auth/csrf', { cache: 'no-store' })).json()) as { token: string }).token;
      const response = await fetch('/api/profile/avatar', { method: 'PUT', body, headers: { 'x-csrf-token': token } });
      const answer = (await response.json()) as Profile & { message?: string };
      if (!response.ok) throw new Error(answer.message ?? 'Upload failed');
      queryClient.setQueryData(profileQuery.queryKey, answer);
      toast('Avatar updated', 'success');
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      setPending(false);
      if (input.current) input.current.value = '';
    }
  };
  const remove = useProfileMutation<undefined>('/api/profile/avatar', 'DELETE', 'Avatar removed');
  return (
    <section aria-labelledby="avatar-title" className="form">
      <h2 id="avatar-title">Avatar</h2>
      <div style={{ display: 'flex', gap: '1rem', alignItems: 'center', flexWrap: 'wrap' }}>
        {profile.avatarUrl ? (
          <img src={profile.avatarUrl} alt="Your avatar" width={64} height={64} style={{ borderRadius: '999px', objectFit: 'cover' }} />
        ) : (
          <span className="avatar" style={{ width: 64, height: 64, fontSize: '1.5rem' }} aria-hidden="true">
            {profile.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="field">
          <label htmlFor="avatar-file">Upload an image</label>
          <input
            id="avatar-file"
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            disabled={pending}
            onChange={(event) => event.target.files?.[0] && void upload(event.target.files[0])}
          />
          <p className="field__hint">PNG, JPEG or WebP, up to 1 MB.</p>
        </div>
        {profile.avatarUrl ? (
          <button
            type="button"
            className="button button--ghost button--danger"
            onClick={() => remove.mutate(undefined)}
            disabled={remove.isPending}
          >
            Remove
          </button>
        ) : null}
      </div>
    </section>
  );
}

function EmailForm({ profile }: { profile: Profile }) {
  const change = useProfileMutation<{ email: string; currentPassword: string }>(
    '/api/profile/email',
    'POST',
    'Check your new inbox: the change applies once you follow the link',
  );
  const fields = change.error instanceof ApiError ? change.error.fields : {};
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    change.mutate({ email: String(form.get('email') ?? ''), currentPassword: String(form.get('currentPassword') ?? '') });
  };
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="email-title">
      <h2 id="email-title">E-mail address</h2>
      <p className="muted" style={{ margin: 0 }}>
        Currently <strong>{profile.email}</strong>
        {profile.pendingEmail ? ` — waiting for confirmation of ${profile.pendingEmail}` : ''}.
      </p>
      {profile.hasPassword ? (
        <>
          <FormField label="New e-mail address" name="email" type="email" required autoComplete="email" errors={fields.email} />
          <FormField
            label="Current password"
            name="currentPassword"
            type="password"
            required
            autoComplete="current-password"
            errors={fields.currentPassword}
          />
          <div>
            <button type="submit" className="button" disabled={change.isPending}>
              {change.isPending ? 'Sending…' : 'Change e-mail'}
            </button>
          </div>
        </>
      ) : null}
    </form>
  );
}

function PasswordForm() {
  const toast = useToast();
  const change = useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string; signOutOtherSessions: boolean }) =>
      api<{ signedOutSessions: number }>('/api/profile/password', { method: 'POST', body }),
    onSuccess: (result) =>
      toast(
        result.signedOutSessions ? `Password changed; ${result.signedOutSessions} other session(s) signed out` : 'Password changed',
        'success',
      ),
    onError: (error) => toast(error.message, 'error'),
  });
  const fields = change.error instanceof ApiError ? change.error.fields : {};
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    change.mutate(
      {
        currentPassword: String(form.get('currentPassword') ?? ''),
        newPassword: String(form.get('newPassword') ?? ''),
        signOutOtherSessions: form.get('signOut') === 'on',
      },
      { onSuccess: () => (event.target as HTMLFormElement).reset() },
    );
  };
  return (
    <form className="form" onSubmit={onSubmit} aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <FormField
        label="Current password"
        name="currentPassword"
        type="password"
        required
        autoComplete="current-password"
        errors={fields.currentPassword}
      />
      <FormField
        label="New password"
        name="newPassword"
        type="password"
        required
        minLength={12}
        maxLength={128}
        autoComplete="new-password"
        hint="At least 12 characters."
        errors={fields.newPassword}
      />
      <label className="checkbox">
        <input type="checkbox" name="signOut" defaultChecked />
        <span>Sign out my other sessions</span>
      </label>
      <div>
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

/**
 * Accounts made through an OpenID provider have no password until the owner sets one with a link
 * sent to their address (the reset flow), which also proves they still own it.
 */
function NoPasswordNotice({ email, action }: { email: string; action: string }) {
  const toast = useToast();
  const send = useMutation({
    mutationFn: () => api<{ message: string }>('/api/auth/forgot-password', { method: 'POST', body: { email } }),
    onSuccess: () => toast(`We sent a link to ${email}: follow it to set your password`, 'success'),
    onError: (error) => toast(error.message, 'error'),
  });
  return (
    <div className="alert alert--info" style={{ display: 'grid', gap: '0.5rem' }}>
      <span>You sign in through your identity provider, so this account has no password. To {action}, set a password first.</span>
      <div>
        <button type="button" className="button button--small" onClick={() => send.mutate()} disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'E-mail me a link to set a password'}
        </button>
      </div>
    </div>
  );
}

function NoPasswordSection({ email }: { email: string }) {
  return (
    <section className="form" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <NoPasswordNotice email={email} action="sign in with your e-mail address or change it" />
    </section>
  );
}

function DataSection({ hasPassword }: { hasPassword: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const data = useDataSource();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: (body: { currentPassword?: string; confirm: string }) => api('/api/profile', { method: 'DELETE', body }),
    onSuccess: async () => {
      queryClient.setQueryData(meQuery(data).queryKey, null);
      toast('Your account has been deleted', 'success');
      await navigate('/', { replace: true });
    },
    onError: (error) => toast(error.message, 'error'),
  });
  const fields = remove.error instanceof ApiError ? remove.error.fields : {};
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const confirm = String(form.get('confirm') ?? '');
    remove.mutate(hasPassword ? { currentPassword: String(form.get('currentPassword') ?? ''), confirm } : { confirm });
  };
  return (
    <section aria-labelledby="data-title" className="form">
      <h2 id="data-title">Your data</h2>
      <p className="muted" style={{ margin: 0 }}>
        Download everything we keep about your account as JSON, or delete the account for good.
      </p>
      <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
        <a className="button" href="/api/profile/export" download>
          Export my data
        </a>
        {!confirming ? (
          <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
            Delete my account…
          </button>
        ) : null}
      </div>
      {confirming ? (
        <form className="form card" onSubmit={onSubmit} aria-label="Delete account" style={{ borderColor: 'var(--danger)' }}>
          <p style={{ margin: 0 }}>
            This deletes your account, sessions, avatar and tool history. It cannot be undone.{' '}
            {hasPassword ? (
              <>
                Type <strong>DELETE</strong> and your password to confirm.
              </>
            ) : (
              <>
                Type <strong>DELETE</strong> to confirm. Your account has no password, so this works within 10 minutes of signing in through
                your identity provider.
              </>
            )}
          </p>
          <FormField label="Type DELETE" name="confirm" required autoComplete="off" errors={fields.confirm} />
          {hasPassword ? (
            <FormField
              label="Current password"
              name="currentPassword"
              type="password"
              required
              autoComplete="current-password"
              errors={fields.currentPassword}
            />
          ) : null}
          <div style={{ display: 'flex', gap: '0.75rem' }}>
            <button
              type="submit"
              className="button button--primary"
              style={{ background: 'var(--danger)', borderColor: 'var(--danger)' }}
              disabled={remove.isPending}
            >
              {remove.isPending ? 'Deleting…' : 'Delete account'}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

export default function ProfilePage() {
  const { data: profile, isPending, isError, refetch } = useQuery(profileQuery);
  return (
    <>
      <PageHeader title="Profile">Your name, e-mail, password, avatar, colour mode and data.</PageHeader>
      {isPending ? (
        <div className="card" aria-busy="true" aria-label="Loading your profile" style={{ display: 'grid', gap: '0.75rem' }}>
          <div className="skeleton" style={{ height: '1.5rem', width: '40%' }} />
          <div className="skeleton" style={{ height: '2.5rem' }} />
          <div className="skeleton" style={{ height: '2.5rem' }} />
        </div>
      ) : isError || !profile ? (
        <div className="alert alert--error" role="alert">
          Could not load your profile.{' '}
          <button type="button" className="button button--small" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <VerificationNotice profile={profile} />
          <div style={{ display: 'grid', gap: '1.5rem' }}>
            <div className="card">
              <DetailsForm profile={profile} />
            </div>
            <div className="card">
              <AvatarForm profile={profile} />
            </div>
            <div className="card">
              <EmailForm profile={profile} />
            </div>
            <div className="card">{profile.hasPassword ? <PasswordForm /> : <NoPasswordSection email={profile.email} />}</div>
            <div className="card">
              <DataSection hasPassword={profile.hasPassword} />
            </div>
          </div>
        </>
      )}
    </>
  );
}
