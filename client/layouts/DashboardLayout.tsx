import type { ReactNode } from 'react';
import { TOOLS } from '../../lib/product.js';
import { type NavSection, Shell } from '../components/Shell.js';
import { AppLink } from '../components/AppLink.js';
import { Icon } from '../components/Icon.js';
import { useMe } from '../app/data-source.js';
import { TOOL_ICONS } from '../components/tool-icons.js';
import { AnnouncementBanner } from '../features/announcement/components/AnnouncementBanner.js';

const SECTIONS: NavSection[] = [
  { label: 'Dashboard', links: [{ to: '/dashboard/lounge', label: 'Lounge', icon: 'home' }] },
  {
    label: 'Tools',
    links: TOOLS.map((tool) => ({ to: `/dashboard/tools/${tool.slug}`, label: tool.name, icon: TOOL_ICONS[tool.slug] })),
  },
  {
    label: 'Account',
    links: [
      { to: '/dashboard/user/orders', label: 'Orders', icon: 'receipt' },
      { to: '/dashboard/user/licenses', label: 'Licences', icon: 'key' },
      { to: '/dashboard/user/subscription', label: 'Subscription', icon: 'refresh' },
      { to: '/dashboard/user/profile', label: 'Profile', icon: 'user' },
    ],
  },
];

/** Layout `authenticated`: the dashboard shell. */
export function DashboardLayout({ children }: { children?: ReactNode }) {
  const me = useMe();
  return (
    <Shell
      sections={SECTIONS}
      banner={<AnnouncementBanner />}
      footer={
        me?.role === 'admin' ? (
          <AppLink to="/admin" className="shell__link">
            <Icon name="settings" className="shell__icon" />
            Admin area
          </AppLink>
        ) : null
      }
    >
      {children}
    </Shell>
  );
}
