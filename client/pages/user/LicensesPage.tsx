import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function LicensesPage() {
  return (
    <>
      <PageHeader title={'Licences'}>{'Licence keys per product, seats in use and the devices they are activated on.'}</PageHeader>
      <UpcomingSection title={'No licences yet'}>
        {'Licences you buy or are granted appear here with their keys and devices.'}
      </UpcomingSection>
    </>
  );
}
