import type { ReactNode } from 'react';
import { type NavSection, Shell } from '../components/Shell.js';
import { AppLink } from '../components/AppLink.js';
import { Icon } from '../components/Icon.js';
import { AnnouncementBanner } from '../features/announcement/components/AnnouncementBanner.js';

const SECTIONS: NavSection[] = [
  {
    label: 'Admin',
    links: [
      { to: '/admin', label: 'Overview', icon: 'grid' },
      { to: '/admin/settings', label: 'Settings', icon: 'settings' },
      { to: '/admin/analytics', label: 'Analytics', icon: 'chart' },
      { to: '/admin/newsletter', label: 'Newsletter', icon: 'mail' },
      { to: '/admin/users', label: 'Users', icon: 'users' },
    ],
  },
];

/** Layout `admin`: the admin shell. */
export function AdminLayout({ children }: { children?: ReactNode }) {
  return (
    <Shell
      sections={SECTIONS}
      badge="Admin"
      banner={<AnnouncementBanner />}
      footer={
        <AppLink to="/dashboard/lounge" className="shell__link">
          <Icon name="arrow-left" className="shell__icon" />
          Back to dashboard
        </AppLink>
      }
    >
      {children}
    </Shell>
  );
}
