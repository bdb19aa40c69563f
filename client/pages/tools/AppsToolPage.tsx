import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function AppsToolPage() {
  return (
    <>
      <PageHeader title={"Hitscope for Apps"}>{"Download the desktop app and your licence key, and analyse Firebase / GA4 debug logs from Android logcat or the iOS console."}</PageHeader>
      <UpcomingSection title={"App-log analyser"}>{"Paste or drop logcat or iOS console output to see the decoded event stream."}</UpcomingSection>
    </>
  );
}
