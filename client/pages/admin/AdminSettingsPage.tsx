import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';
import { CatalogueSection } from '../../features/catalogue-admin/components/CatalogueSection.js';
import { SigningKeysSection } from '../../features/licensing-admin/components/SigningKeysSection.js';
import { ReleasesSection } from '../../features/releases-admin/components/ReleasesSection.js';
import { RouteRulesEditor } from '../../features/route-rules/components/RouteRulesEditor.js';
import '../../features/route-rules/route-rules.css';

export default function AdminSettingsPage() {
  return (
    <>
      <PageHeader title="Settings">
        Site name, registration, announcement, redirect rules, sponsors, privacy policy, catalogue, releases and licence signing keys.
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
      <SigningKeysSection />
      <UpcomingSection title="Site settings">
        Site name, registration, announcement, sponsors and the privacy policy are edited here.
      </UpcomingSection>
    </>
  );
}
