import { type NavSection, Shell } from '../components/Shell.js';
import { AppLink } from '../components/AppLink.js';

const SECTIONS: NavSection[] = [
  {
    label: 'Admin',
    links: [
      { to: '/admin', label: 'Overview', icon: '▦' },
      { to: '/admin/settings', label: 'Settings', icon: '⚙' },
      { to: '/admin/analytics', label: 'Analytics', icon: '📈' },
      { to: '/admin/newsletter', label: 'Newsletter', icon: '✉' },
      { to: '/admin/users', label: 'Users', icon: '👥' },
    ],
  },
];

/** Layout `admin`: the admin shell. */
export function AdminLayout() {
  return (
    <Shell
      sections={SECTIONS}
      badge="Admin"
      footer={
        <AppLink to="/dashboard/lounge" className="shell__link">
          <span className="shell__icon" aria-hidden="true">
            ←
          </span>
          Back to dashboard
        </AppLink>
      }
    />
  );
}
