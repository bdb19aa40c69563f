import { useSiteSettings } from '../app/data-source.js';
import { AppLink } from './AppLink.js';
import './Logo.css';

/**
 * The brand mark and the site's name (from the settings). `plain` renders a plain anchor, for markup
 * outside the router (the server's static error screen).
 */
export function Logo({ to = '/', plain = false }: { to?: string; plain?: boolean }) {
  const { siteName } = useSiteSettings();
  const mark = (
    <>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="13" fill="none" stroke="currentColor" strokeWidth="3" />
        <circle cx="16" cy="16" r="4" fill="var(--accent)" />
        <path d="M16 1v7M16 24v7M1 16h7M24 16h7" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span>{siteName}</span>
    </>
  );
  return plain ? (
    <a href={to} className="logo" aria-label={`${siteName} home`}>
      {mark}
    </a>
  ) : (
    <AppLink to={to} className="logo" aria-label={`${siteName} home`} end>
      {mark}
    </AppLink>
  );
}
