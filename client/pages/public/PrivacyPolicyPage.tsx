import { useQuery } from '@tanstack/react-query';
import { useDataSource } from '../../app/data-source.js';
import { privacyPolicyQuery } from '../../app/queries.js';
import {
  LegalDocumentLoading,
  LegalDocumentUnavailable,
  LegalMarkdownDocument,
} from '../../features/marketing/components/LegalMarkdownDocument.js';

const TITLE = 'Privacy policy';

/** Prefetched by the route's loader, so the server's HTML already holds the policy. */
export default function PrivacyPolicyPage() {
  const policy = useQuery(privacyPolicyQuery(useDataSource()));
  if (policy.isPending) return <LegalDocumentLoading title={TITLE} />;
  if (policy.isError) return <LegalDocumentUnavailable title={TITLE} onRetry={() => void policy.refetch()} />;
  // What the first-party analytics collects, generated on the server from its live settings.
  return (
    <LegalMarkdownDocument
      title={TITLE}
      document={policy.data}
      extra={<div dangerouslySetInnerHTML={{ __html: policy.data.analyticsHtml }} />}
    />
  );
}
