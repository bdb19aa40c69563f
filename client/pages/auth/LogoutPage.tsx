import { SignOut } from '../../features/auth/components/SignOut.js';

export default function LogoutPage() {
  return <SignOut />;
}
