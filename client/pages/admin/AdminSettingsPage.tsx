import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader.js';
import { AnalyticsSettingsSection } from '../../features/analytics/components/AnalyticsSettingsSection.js';
import { CatalogueSection } from '../../features/catalogue-admin/components/CatalogueSection.js';
import { SigningKeysSection } from '../../features/licensing-admin/components/SigningKeysSection.js';
import { ReleasesSection } from '../../features/releases-admin/components/ReleasesSection.js';
import { NewsletterSettingsSection } from '../../features/newsletter/components/NewsletterSettingsSection.js';
import { RouteRulesEditor } from '../../features/route-rules/components/RouteRulesEditor.js';
import { AnnouncementSection } from '../../features/site-settings/components/AnnouncementSection.js';
import { GeneralSection } from '../../features/site-settings/components/GeneralSection.js';
import { ContactSection } from '../../features/site-settings/components/ContactSection.js';
import { LegalDocumentSection } from '../../features/site-settings/components/LegalDocumentSection.js';
import { RegistrationSection } from '../../features/site-settings/components/RegistrationSection.js';
import { SettingsNav } from '../../features/site-settings/components/SettingsNav.js';
import { SponsorsSection } from '../../features/site-settings/components/SponsorsSection.js';
import '../../features/route-rules/route-rules.css';
import '../../features/site-settings/site-settings.css';
// The announcement editor previews the banner with the banner's own styles.
import '../../features/announcement/announcement.css';

function RedirectRulesSection() {
  return (
    <section className="card route-rules" aria-labelledby="rules-title">
      <h2 id="rules-title">Redirect rules</h2>
      <p className="muted">
        Checked on every navigation, on the server and in the browser. Exact paths win over prefixes; the longest prefix wins.
      </p>
      <RouteRulesEditor />
    </section>
  );
}

/**
 * The sections in page order: each is one card with its own save button, and the navigation lists
 * them all. A new section (newsletter, analytics…) is one more entry here.
 */
const SECTIONS: ReadonlyArray<{ id: string; label: string; render: (id: string) => ReactNode }> = [
  { id: 'site', label: 'Site name', render: (id) => <GeneralSection id={id} /> },
  { id: 'registration', label: 'Registration', render: (id) => <RegistrationSection id={id} /> },
  { id: 'announcement', label: 'Announcement', render: (id) => <AnnouncementSection id={id} /> },
  { id: 'redirect-rules', label: 'Redirect rules', render: () => <RedirectRulesSection /> },
  { id: 'sponsors', label: 'Sponsors', render: (id) => <SponsorsSection id={id} /> },
  { id: 'contact', label: 'Contact addresses', render: (id) => <ContactSection id={id} /> },
  { id: 'privacy', label: 'Privacy policy', render: (id) => <LegalDocumentSection id={id} section="privacy" /> },
  { id: 'terms', label: 'Terms of service', render: (id) => <LegalDocumentSection id={id} section="terms" /> },
  { id: 'newsletter', label: 'Newsletter', render: () => <NewsletterSettingsSection /> },
  { id: 'analytics', label: 'Analytics', render: () => <AnalyticsSettingsSection /> },
  { id: 'catalogue', label: 'Catalogue', render: () => <CatalogueSection /> },
  { id: 'releases', label: 'Releases', render: () => <ReleasesSection /> },
  { id: 'signing-keys', label: 'Signing keys', render: () => <SigningKeysSection /> },
];

export default function AdminSettingsPage() {
  return (
    <>
      <PageHeader title="Settings">
        Site name, registration, announcement, redirect rules, sponsors, contact addresses, privacy policy, terms of service, newsletter
        sending, analytics, catalogue, releases and licence signing keys. Every change is audited.
      </PageHeader>
      <div className="site-settings">
        <SettingsNav items={SECTIONS} />
        <div className="site-settings__sections">
          {SECTIONS.map((section) => (
            <div key={section.id} id={section.id} className="site-settings__anchor">
              {section.render(section.id)}
            </div>
          ))}
        </div>
      </div>
    </>
  );
}
