import { TokenActionCard } from '../../features/newsletter/components/TokenActionCard.js';

export default function NewsletterUnsubscribePage() {
  return <TokenActionCard action="unsubscribe" />;
}
