import { useSiteSettings } from '../../app/data-source.js';
import { AppLink } from '../../components/AppLink.js';
import { Icon } from '../../components/Icon.js';
import { RegisterForm } from '../../features/auth/components/RegisterForm.js';
import { useRedirectTarget, withRedirect } from '../../features/auth/hooks/useRedirectTarget.js';
import '../../features/auth/auth.css';

/** `/register`: the form, or (when an admin closed registration) a notice that says so, with the way to sign in. */
export default function RegisterPage() {
  const { registrationOpen, siteName } = useSiteSettings();
  const redirect = useRedirectTarget();
  if (registrationOpen) return <RegisterForm />;
  return (
    <section className="card auth-card" aria-labelledby="register-closed-title">
      <span className="icon-chip auth-card__icon" aria-hidden="true">
        <Icon name="shield" />
      </span>
      <h1 id="register-closed-title">Registration is closed</h1>
      <p>{siteName} is not taking new accounts right now. If you already have one, you can sign in as usual.</p>
      <AppLink to={withRedirect('/login', redirect)} className="button button--primary button--block">
        Sign in
      </AppLink>
      <p className="auth-card__footer">
        <AppLink to="/">Back to the home page</AppLink>
      </p>
    </section>
  );
}
