import { PageHeader } from '../../components/PageHeader.js';
import { ExtensionGuide } from '../../features/browser-extension/components/ExtensionGuide.js';
import { HarAnalyser } from '../../features/har/components/HarAnalyser.js';
import { ReleaseDownloads } from '../../features/releases/components/ReleaseDownloads.js';
import { COMPANION_PRODUCTS } from '../../../lib/product.js';
import '../../features/har/har.css';

export default function HarPage() {
  return (
    <>
      <PageHeader title={'Hitscope for Browsers'}>
        {
          'Every analytics hit of the page as it is sent, in your browser, and a HAR analyser for captures made without it. Nothing you capture leaves your browser.'
        }
      </PageHeader>
      <ExtensionGuide />
      <ReleaseDownloads product={COMPANION_PRODUCTS.browsers.slug} />
      <section className="har-tool" aria-labelledby="har-title">
        <h2 id="har-title">HAR analyser</h2>
        <p className="muted har-tool__intro">
          The hits of analytics, advertising, tag-manager and session-replay vendors — Google (GA4 with batched requests, server-side
          tagging and tag gateway, Ads, Floodlight, Tag Manager), Adobe, Meta, Matomo, Piwik PRO, Segment, Mixpanel, Amplitude, Tealium,
          TikTok, LinkedIn, Criteo and many more — decoded into named parameters and grouped by kind, with consent state and common
          mistakes. A request to a known endpoint that is not a valid hit is shown with the reason. The extension's HAR export opens here
          with the same hits.
        </p>
        <HarAnalyser />
      </section>
    </>
  );
}
