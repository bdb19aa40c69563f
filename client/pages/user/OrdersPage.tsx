import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function OrdersPage() {
  return (
    <>
      <PageHeader title={'Orders'}>{'Every purchase with its date, product, plan, amount and receipt.'}</PageHeader>
      <UpcomingSection title={'No orders yet'}>{'When you buy a licence, the order and its receipt appear here.'}</UpcomingSection>
    </>
  );
}
