import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function Ga4mpPage() {
  return (
    <>
      <PageHeader title={"GA4 Measurement Protocol"}>{"Compose a Measurement Protocol payload for a web or app stream, validate it against GA4's rules and send it to the debug or collection endpoint."}</PageHeader>
      <UpcomingSection title={"Workbench"}>{"The payload composer, validator and send history open here."}</UpcomingSection>
    </>
  );
}
