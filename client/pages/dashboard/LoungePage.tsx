import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';
import { useMe } from '../../lib/data-source-context.js';

export default function LoungePage() {
  const me = useMe();
  return (
    <>
      <PageHeader title={me ? `Welcome, ${me.name}` : "Lounge"}>{"Your licences, subscription and tools at a glance."}</PageHeader>
      <UpcomingSection title={"Latest releases and announcements"}>{"Release notes of Hitscope for Apps and Hitscope for Browsers, and announcements from the team, will appear here."}</UpcomingSection>
    </>
  );
}
