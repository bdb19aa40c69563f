import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Logo } from '../components/Logo.js';
import { ColorModeToggle } from '../components/ColorModeToggle.js';
import './layouts.css';

/**
 * The bare screens' frame: the logo and the colour switch above a centred card. `static` is for a
 * page sent without scripts (the server's own error screen): the logo is a plain link and there is
 * no colour switch, which could not work there.
 */
export function BareFrame({ children, static: isStatic = false }: { children: ReactNode; static?: boolean }) {
  return (
    <div className="bare">
      <header className="bare__header">
        {isStatic ? <Logo plain /> : <Logo />}
        {isStatic ? null : <ColorModeToggle />}
      </header>
      <main id="main" className="bare__main">
        {children}
      </main>
    </div>
  );
}

/** Layout `none`: a centred card, no navigation (sign-in, registration, sign-out, errors). */
export function BareLayout() {
  return (
    <BareFrame>
      <Outlet />
    </BareFrame>
  );
}
