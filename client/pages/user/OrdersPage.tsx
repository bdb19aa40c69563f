import { PageHeader } from '../../components/PageHeader.js';
import { OrdersTable } from '../../features/billing/components/OrdersTable.js';

export default function OrdersPage() {
  return (
    <>
      <PageHeader title={'Orders'}>{'Every purchase with its date, product, plan, amount and receipt.'}</PageHeader>
      <OrdersTable />
    </>
  );
}
