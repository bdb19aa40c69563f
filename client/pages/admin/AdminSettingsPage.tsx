import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';
import { CatalogueSection } from '../../features/catalogue-admin/components/CatalogueSection.js';
import { ReleasesSection } from '../../features/releases-admin/components/ReleasesSection.js';
import { RouteRulesEditor } from '../../features/route-rules/components/RouteRulesEditor.js';
import '../../features/route-rules/route-rules.css';

export default function AdminSettingsPage() {
  return (
    <>
      <PageHeader title="Settings">
        Site name, registration, announcement, redirect rules, sponsors, privacy policy, catalogue and releases.
      </PageHeader>
      <section className="card route-rules" aria-labelledby="rules-title">
        <h2 id="rules-title">Redirect rules</h2>
        <p className="muted">
          Checked on every navigation, on the server and in the browser. Exact paths win over prefixes; the longest prefix wins.
        </p>
        <RouteRulesEditor />
      </section>
      <CatalogueSection />
      <ReleasesSection />
      <UpcomingSection title="Site settings">
        Site name, registration, announcement, sponsors and the privacy policy are edited here.
      </UpcomingSection>
    </>
  );
}
