import { useSiteSettings } from '../app/data-source.js';
import { AppLink } from './AppLink.js';
import './Logo.css';

/** The brand mark and the site's name (from the settings). */
export function Logo({ to = '/' }: { to?: string }) {
  const { siteName } = useSiteSettings();
  return (
    <AppLink to={to} className="logo" aria-label={`${siteName} home`} end>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="13" fill="none" stroke="currentColor" strokeWidth="3" />
        <circle cx="16" cy="16" r="4" fill="var(--accent)" />
        <path d="M16 1v7M16 24v7M1 16h7M24 16h7" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span>{siteName}</span>
    </AppLink>
  );
}
