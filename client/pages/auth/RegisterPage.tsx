import { RegisterForm } from '../../features/auth/components/RegisterForm.js';

export default function RegisterPage() {
  return <RegisterForm />;
}
