import { useQuery } from '@tanstack/react-query';
import { useDataSource } from '../../app/data-source.js';
import { privacyPolicyQuery } from '../../app/queries.js';
import '../../features/marketing/legal.css';
import { PrivacyPolicy, PrivacyPolicyUnavailable } from '../../features/marketing/components/PrivacyPolicy.js';

/** Prefetched by the route's loader, so the server's HTML already holds the policy. */
export default function PrivacyPolicyPage() {
  const policy = useQuery(privacyPolicyQuery(useDataSource()));
  if (policy.isPending) {
    return (
      <div className="section container" role="status" aria-busy="true" aria-label="Loading the privacy policy">
        <div className="skeleton policy__skeleton-title" />
        <div className="skeleton policy__skeleton-body" />
      </div>
    );
  }
  if (policy.isError) return <PrivacyPolicyUnavailable onRetry={() => void policy.refetch()} />;
  // What the first-party analytics collects, generated on the server from its live settings.
  return <PrivacyPolicy policy={policy.data} extra={<div dangerouslySetInnerHTML={{ __html: policy.data.analyticsHtml }} />} />;
}
