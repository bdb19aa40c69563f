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
          GA4 (including batched requests and server-side tagging), Universal Analytics, Google Ads, Floodlight, and the Meta, TikTok,
          LinkedIn, Microsoft UET, Pinterest, Snap, Reddit and X pixels, decoded into named parameters, with consent state and common
          mistakes. The extension's HAR export opens here with the same hits.
        </p>
        <HarAnalyser />
      </section>
    </>
  );
}
