import { type ReactNode, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppLink } from './AppLink.js';
import { ColorModeToggle } from './ColorModeToggle.js';
import { Icon, type IconName } from './Icon.js';
import { Logo } from './Logo.js';
import { useMe } from '../app/data-source.js';
import './Shell.css';

export interface NavSection {
  label: string;
  links: ReadonlyArray<{ to: string; label: string; icon: IconName }>;
}

/** The signed-in shell shared by the dashboard and admin layouts: sidebar, top bar, content (the page, or `children`). */
export function Shell({
  sections,
  badge,
  footer,
  banner,
  children,
}: {
  sections: NavSection[];
  badge?: string;
  footer?: ReactNode;
  banner?: ReactNode;
  /** What the main area shows instead of the matched page (an error screen inside the shell). */
  children?: ReactNode;
}) {
  const me = useMe();
  const { pathname } = useLocation();
  // The drawer belongs to the page it was opened on: navigating closes it, with no effect to reset it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOn(null);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <div className={`shell${open ? ' shell--open' : ''}`}>
      <aside className="shell__sidebar" id="sidebar" aria-label="Sidebar">
        <div className="shell__brand">
          <Logo to="/dashboard/lounge" />
          {badge ? <span className="badge">{badge}</span> : null}
        </div>
        <nav className="shell__nav" aria-label="Sections">
          {sections.map((section) => (
            <div className="shell__section" key={section.label}>
              <p className="shell__section-label">{section.label}</p>
              <ul>
                {section.links.map((link) => (
                  <li key={link.to}>
                    <AppLink to={link.to} end className="shell__link">
                      <Icon name={link.icon} className="shell__icon" />
                      {link.label}
                    </AppLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        {footer ? <div className="shell__footer">{footer}</div> : null}
      </aside>
      {/* Pointer-only way to close the drawer; keyboard users have Escape and the Menu button. */}
      <div className="shell__backdrop" aria-hidden="true" onClick={() => setOpen(false)} />
      <div className="shell__body">
        <header className="shell__topbar">
          <button
            type="button"
            className="button button--ghost shell__menu"
            aria-controls="sidebar"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            <Icon name="menu" /> Menu
          </button>
          <div className="shell__topbar-actions">
            <ColorModeToggle />
            {me ? (
              <span className="shell__user" title={me.email}>
                {/* Decorative: the name beside it says who this is. */}
                {me.avatarUrl ? (
                  <img className="avatar shell__avatar" src={me.avatarUrl} alt="" width={32} height={32} />
                ) : (
                  <span className="avatar" aria-hidden="true">
                    {me.name.slice(0, 1).toUpperCase()}
                  </span>
                )}
                <span className="shell__user-name">{me.name}</span>
              </span>
            ) : null}
            <a className="button button--ghost" href="/logout">
              Sign out
            </a>
          </div>
        </header>
        {banner}
        <main id="main" className="shell__main">
          {children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}
