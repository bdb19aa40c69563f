import { TOOLS } from '../../lib/product.js';
import { type NavSection, Shell } from '../components/Shell.js';
import { AppLink } from '../components/AppLink.js';
import { useMe } from '../lib/data-source-context.js';

const TOOL_ICONS = ['⚡', '🔗', '🧭', '📱'];

const SECTIONS: NavSection[] = [
  { label: 'Dashboard', links: [{ to: '/dashboard/lounge', label: 'Lounge', icon: '⌂' }] },
  {
    label: 'Tools',
    links: TOOLS.map((tool, index) => ({ to: `/dashboard/tools/${tool.slug}`, label: tool.name, icon: TOOL_ICONS[index] ?? '•' })),
  },
  {
    label: 'Account',
    links: [
      { to: '/dashboard/user/orders', label: 'Orders', icon: '🧾' },
      { to: '/dashboard/user/licenses', label: 'Licences', icon: '🔑' },
      { to: '/dashboard/user/subscription', label: 'Subscription', icon: '↻' },
      { to: '/dashboard/user/profile', label: 'Profile', icon: '👤' },
    ],
  },
];

/** Layout `authenticated`: the dashboard shell. */
export function DashboardLayout() {
  const me = useMe();
  return (
    <Shell
      sections={SECTIONS}
      footer={
        me?.role === 'admin' ? (
          <AppLink to="/admin" className="shell__link">
            <span className="shell__icon" aria-hidden="true">
              ⚙
            </span>
            Admin area
          </AppLink>
        ) : null
      }
    />
  );
}
