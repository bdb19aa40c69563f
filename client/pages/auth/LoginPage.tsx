import { useSearchParams } from 'react-router';
import { ForgotPasswordForm } from '../../features/auth/components/ForgotPasswordForm.js';
import { ResetPasswordForm } from '../../features/auth/components/ResetPasswordForm.js';
import { SignInForm } from '../../features/auth/components/SignInForm.js';

/** `/login`, `/login?forgot=1` (ask for a reset link) and `/login?reset=<token>` (the link itself). */
export default function LoginPage() {
  const [params] = useSearchParams();
  const resetToken = params.get('reset');
  if (resetToken) return <ResetPasswordForm token={resetToken} />;
  if (params.has('forgot')) return <ForgotPasswordForm />;
  return <SignInForm />;
}
