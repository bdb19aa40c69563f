import { SponsorContact, SponsorHero, SponsorList, SponsorTiers } from '../../features/marketing/components/SponsorSections.js';

export default function SponsorPage() {
  return (
    <>
      <SponsorHero />
      <SponsorTiers />
      <SponsorList />
      <SponsorContact />
    </>
  );
}
