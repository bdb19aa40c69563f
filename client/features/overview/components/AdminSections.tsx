import { useId } from 'react';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';

const SECTIONS = [
  { to: '/admin/settings', icon: 'settings', label: 'Settings', text: 'Site name, registration, banner, catalogue, releases, redirects.' },
  { to: '/admin/analytics', icon: 'chart', label: 'Analytics', text: 'Page views, visitors, tool usage over time.' },
  { to: '/admin/newsletter', icon: 'mail', label: 'Newsletter', text: 'Subscribers and campaigns.' },
  { to: '/admin/users', icon: 'users', label: 'Users', text: 'Roles, sessions, orders, licences and subscriptions.' },
] as const;

/** Links to each admin section, below the figures. */
export function AdminSections() {
  const headingId = useId();
  return (
    <nav className="overview-sections" aria-labelledby={headingId}>
      <h2 id={headingId} className="overview-sections__title">
        Admin sections
      </h2>
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.to}>
            <AppLink to={section.to} className="card overview-sections__link">
              <Icon name={section.icon} className="overview-sections__icon" />
              <span>
                <strong>{section.label}</strong>
                <span className="overview-sections__text">{section.text}</span>
              </span>
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
