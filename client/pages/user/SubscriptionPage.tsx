import { PageHeader } from '../../components/PageHeader.js';
import { SubscriptionPanel } from '../../features/billing/components/SubscriptionPanel.js';

export default function SubscriptionPage() {
  return (
    <>
      <PageHeader title={'Subscription'}>
        {'What you own, subscriptions and one-off purchases, with their licences; cancel, resume or change a plan.'}
      </PageHeader>
      <SubscriptionPanel />
    </>
  );
}
