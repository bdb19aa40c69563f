import { Outlet } from 'react-router';
import { AppLink } from '../components/AppLink.js';
import { ColorModeToggle } from '../components/ColorModeToggle.js';
import { Logo } from '../components/Logo.js';
import { useMe, useSiteSettings } from '../app/data-source.js';
import { AnnouncementBanner } from '../features/announcement/components/AnnouncementBanner.js';
import './layouts.css';

/** Layout `default`: public header and footer. */
export function PublicLayout() {
  const me = useMe();
  const { siteName } = useSiteSettings();
  return (
    <div className="public">
      <AnnouncementBanner />
      <header className="site-header">
        <div className="container site-header__inner">
          <Logo />
          <nav aria-label="Main" className="site-nav">
            <AppLink to="/" end>
              Home
            </AppLink>
            <AppLink to="/sponsor">Sponsor</AppLink>
            <AppLink to="/privacy-policy">Privacy</AppLink>
          </nav>
          <div className="site-header__mode">
            <ColorModeToggle />
          </div>
          <div className="site-header__actions">
            {me ? (
              <AppLink to="/dashboard/lounge" className="button button--primary">
                Dashboard
              </AppLink>
            ) : (
              <>
                <AppLink to="/login" className="button button--ghost">
                  Sign in
                </AppLink>
                <AppLink to="/register" className="button button--primary">
                  Get started
                </AppLink>
              </>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="public__main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="container site-footer__inner">
          <p>
            © {new Date().getFullYear()} {siteName}. Built for analytics engineers.
          </p>
          <nav aria-label="Footer" className="site-footer__nav">
            <AppLink to="/privacy-policy" preloadOnVisible>
              Privacy policy
            </AppLink>
            <AppLink to="/terms" preloadOnVisible>
              Terms of service
            </AppLink>
            <AppLink to="/sponsor" preloadOnVisible>
              Sponsor
            </AppLink>
            <a href="/sitemap.xml">Sitemap</a>
          </nav>
        </div>
      </footer>
    </div>
  );
}
