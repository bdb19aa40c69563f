import { PageHeader } from '../../components/PageHeader.js';
import { AppLogAnalyser } from '../../features/applog/components/AppLogAnalyser.js';
import { ReleaseDownloads } from '../../features/releases/components/ReleaseDownloads.js';
import { COMPANION_PRODUCTS } from '../../../lib/product.js';
import '../../features/applog/applog.css';

export default function AppLogPage() {
  return (
    <>
      <PageHeader title="Hitscope for Apps">
        Analyse Firebase / GA4 debug output from Android logcat or the iOS console: every event decoded and checked against the GA4 and
        Firebase limits. The log is analysed in your browser and never uploaded.
      </PageHeader>

      <section className="applog" aria-labelledby="applog-heading">
        <h2 id="applog-heading">App-log analyser</h2>
        <AppLogAnalyser />
      </section>

      <ReleaseDownloads product={COMPANION_PRODUCTS.apps.slug} />
    </>
  );
}
