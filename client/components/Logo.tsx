import { PRODUCT } from '../../lib/product.js';
import { AppLink } from './AppLink.js';
import './Logo.css';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <AppLink to={to} className="logo" aria-label={`${PRODUCT.name} home`} end>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="13" fill="none" stroke="currentColor" strokeWidth="3" />
        <circle cx="16" cy="16" r="4" fill="var(--accent)" />
        <path d="M16 1v7M16 24v7M1 16h7M24 16h7" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span>{PRODUCT.name}</span>
    </AppLink>
  );
}
