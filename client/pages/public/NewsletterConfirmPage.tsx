import { TokenActionCard } from '../../features/newsletter/components/TokenActionCard.js';

export default function NewsletterConfirmPage() {
  return <TokenActionCard action="confirm" />;
}
