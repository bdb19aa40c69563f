import { isSafeLinkUrl } from '../../../../lib/api/site-settings.js';
import { useSiteSettings } from '../../../app/data-source.js';
import { AppLink } from '../../../components/AppLink.js';
import { useDismissAnnouncement } from '../api.js';
import '../announcement.css';

/**
 * The admin's announcement at the top of the layouts. The text is inline Markdown rendered on the
 * server (raw HTML escaped), so it is set as HTML; a dismissed version never reaches the page.
 */
export function AnnouncementBanner({ className }: { className?: string }) {
  const { announcement } = useSiteSettings();
  const dismiss = useDismissAnnouncement();
  if (!announcement) return null;
  const { link } = announcement;
  const internal = link ? link.url.startsWith('/') && isSafeLinkUrl(link.url) : false;
  return (
    <div
      className={`announcement announcement--${announcement.tone}${className ? ` ${className}` : ''}`}
      role="region"
      aria-label="Announcement"
      data-version={announcement.version}
    >
      <div className="announcement__inner">
        <span className="announcement__icon" aria-hidden="true">
          {announcement.tone === 'warning' ? '!' : 'i'}
        </span>
        <p className="announcement__text">
          <span dangerouslySetInnerHTML={{ __html: announcement.html }} />
          {link ? (
            <>
              {' '}
              {internal ? (
                <AppLink to={link.url} className="announcement__link">
                  {link.label}
                </AppLink>
              ) : (
                <a href={link.url} className="announcement__link" rel="noopener noreferrer">
                  {link.label}
                </a>
              )}
            </>
          ) : null}
        </p>
        <button
          type="button"
          className="announcement__close"
          aria-label="Dismiss announcement"
          onClick={() => dismiss.mutate(announcement.version)}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </div>
  );
}
