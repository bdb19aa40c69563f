import { useRef } from 'react';
import { useMe } from '../../app/data-source.js';
import { PageHeader } from '../../components/PageHeader.js';
import { LicencesGlance } from '../../features/licences/components/LicencesGlance.js';
import { SubscriptionGlance } from '../../features/billing/components/SubscriptionGlance.js';
import { LatestReleasesList } from '../../features/releases/components/LatestReleasesList.js';
import { RedirectNoticeBanner } from '../../features/lounge/components/RedirectNoticeBanner.js';
import { ToolShortcuts } from '../../features/lounge/components/ToolShortcuts.js';
import { useRedirectNotice } from '../../features/lounge/hooks/useRedirectNotice.js';
import '../../features/lounge/lounge.css';

export default function LoungePage() {
  const me = useMe();
  const toolsHeading = useRef<HTMLHeadingElement>(null);
  const { notice, dismiss } = useRedirectNotice(toolsHeading);
  return (
    <>
      {notice ? <RedirectNoticeBanner notice={notice} onDismiss={dismiss} /> : null}
      <PageHeader title={me ? `Welcome, ${me.name}` : 'Lounge'}>Your licences, subscription and tools at a glance.</PageHeader>
      <div className="lounge-glances">
        <LicencesGlance />
        <SubscriptionGlance />
      </div>
      <ToolShortcuts headingRef={toolsHeading} />
      <LatestReleasesList />
    </>
  );
}
