import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function BrowsersToolPage() {
  return (
    <>
      <PageHeader title={"Hitscope for Browsers"}>{"Download the browser extension and your licence key, and analyse HAR exports in the page: the file never leaves your browser."}</PageHeader>
      <UpcomingSection title={"HAR analyser"}>{"Drop a HAR file exported from your browser's devtools to list every analytics hit."}</UpcomingSection>
    </>
  );
}
