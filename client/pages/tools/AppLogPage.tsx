import { Icon } from '../../components/Icon.js';
import { PageHeader } from '../../components/PageHeader.js';
import { AppLogAnalyser } from '../../features/applog/components/AppLogAnalyser.js';
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

      <section className="applog-downloads" aria-labelledby="apps-downloads-heading">
        <h2 id="apps-downloads-heading">Hitscope for Apps — downloads &amp; licence</h2>
        <div className="card applog-downloads__card">
          <span className="icon-chip" aria-hidden="true">
            <Icon name="key" />
          </span>
          <div>
            <p>
              <strong>Desktop app downloads and your licence key are not available here yet.</strong>
            </p>
            <p className="muted">
              They arrive with a later release of this page. The analyser above needs neither: it runs in your browser.
            </p>
          </div>
        </div>
      </section>
    </>
  );
}
