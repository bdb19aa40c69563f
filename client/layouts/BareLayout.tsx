import { Outlet } from 'react-router';
import { Logo } from '../components/Logo.js';
import { ColorModeToggle } from '../components/ColorModeToggle.js';
import './layouts.css';

/** Layout `none`: a centred card, no navigation (sign-in, registration, sign-out, errors). */
export function BareLayout() {
  return (
    <div className="bare">
      <header className="bare__header">
        <Logo />
        <ColorModeToggle />
      </header>
      <main id="main" className="bare__main">
        <Outlet />
      </main>
    </div>
  );
}
