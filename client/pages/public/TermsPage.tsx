import { useQuery } from '@tanstack/react-query';
import { useDataSource } from '../../app/data-source.js';
import { termsQuery } from '../../app/queries.js';
import {
  LegalDocumentLoading,
  LegalDocumentUnavailable,
  LegalMarkdownDocument,
} from '../../features/marketing/components/LegalMarkdownDocument.js';

const TITLE = 'Terms of service';

/**
 * `/terms`: edited in /admin/settings like the privacy policy; plans, prices, seats and contact
 * addresses filled in on the server from the catalogue and the settings. Prefetched by the route's
 * loader, so the server's HTML already holds them.
 */
export default function TermsPage() {
  const terms = useQuery(termsQuery(useDataSource()));
  if (terms.isPending) return <LegalDocumentLoading title={TITLE} />;
  if (terms.isError) return <LegalDocumentUnavailable title={TITLE} onRetry={() => void terms.refetch()} />;
  return <LegalMarkdownDocument title={TITLE} document={terms.data} />;
}
