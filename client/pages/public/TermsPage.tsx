import { TermsOfService } from '../../features/marketing/components/TermsOfService.js';

export default function TermsPage() {
  return <TermsOfService />;
}
