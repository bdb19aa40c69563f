import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.js';
import { CheckoutReturn, checkoutReturnOf } from '../../features/billing/components/CheckoutReturn.js';
import { LicenceList } from '../../features/licences/components/LicenceList.js';

export default function LicensesPage() {
  // A one-off purchase comes back from Stripe Checkout here: its keys are what was bought.
  const checkout = checkoutReturnOf(useSearchParams()[0]);
  return (
    <>
      <PageHeader title="Licences">Licence keys per product, seats in use and the devices they are activated on.</PageHeader>
      {checkout?.kind === 'success' ? <CheckoutReturn sessionId={checkout.sessionId} /> : null}
      <LicenceList purchaseReturning={checkout?.kind === 'success'} />
    </>
  );
}
