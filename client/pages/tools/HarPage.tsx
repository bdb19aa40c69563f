import { PageHeader } from '../../components/PageHeader.js';
import { HarAnalyser } from '../../features/har/components/HarAnalyser.js';
import { ReleaseDownloads } from '../../features/releases/components/ReleaseDownloads.js';
import { COMPANION_PRODUCTS } from '../../../lib/product.js';
import '../../features/har/har.css';

export default function HarPage() {
  return (
    <>
      <PageHeader title={'Hitscope for Browsers'}>
        {'Analyse HAR exports of your browser: every analytics hit decoded, with warnings. The file never leaves your browser.'}
      </PageHeader>
      <section className="har-tool" aria-labelledby="har-title">
        <h2 id="har-title">HAR analyser</h2>
        <p className="muted har-tool__intro">
          GA4 (including batched requests and server-side tagging), Universal Analytics, Google Ads, Floodlight, and the Meta, TikTok,
          LinkedIn, Microsoft UET, Pinterest, Snap, Reddit and X pixels, decoded into named parameters, with consent state and common
          mistakes.
        </p>
        <HarAnalyser />
      </section>
      <ReleaseDownloads product={COMPANION_PRODUCTS.browsers.slug} />
    </>
  );
}
