import { PageHeader } from '../../components/PageHeader.js';
import { LicenceList } from '../../features/licences/components/LicenceList.js';

export default function LicensesPage() {
  return (
    <>
      <PageHeader title="Licences">Licence keys per product, seats in use and the devices they are activated on.</PageHeader>
      <LicenceList />
    </>
  );
}
