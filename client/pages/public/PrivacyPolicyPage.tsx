import { PrivacyPolicy } from '../../features/marketing/components/PrivacyPolicy.js';

export default function PrivacyPolicyPage() {
  return <PrivacyPolicy />;
}
