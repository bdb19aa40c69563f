import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';

export default function LinkerPage() {
  return (
    <>
      <PageHeader title={"Google tag linker"}>{"Decode a _gl linker parameter or a decorated URL into its cookies, check its fingerprint, or build one from cookies."}</PageHeader>
      <UpcomingSection title={"Decoder and encoder"}>{"Paste a _gl value or a full URL to decode it."}</UpcomingSection>
    </>
  );
}
