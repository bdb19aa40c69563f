import { PageHeader } from '../../components/PageHeader.js';
import { SubscriptionPanel } from '../../features/billing/components/SubscriptionPanel.js';

export default function SubscriptionPage() {
  return (
    <>
      <PageHeader title={'Subscription'}>{'Your plan, its status and renewal date; cancel, resume or change plan.'}</PageHeader>
      <SubscriptionPanel />
    </>
  );
}
