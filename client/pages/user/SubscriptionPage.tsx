import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function SubscriptionPage() {
  return (
    <>
      <PageHeader title={'Subscription'}>{'Your plan, its status and renewal date; cancel, resume or change plan.'}</PageHeader>
      <UpcomingSection title={'No subscription'}>{'You are on the free plan. Paid plans include both companion products.'}</UpcomingSection>
    </>
  );
}
