import type { RedirectNotice } from '../../../../lib/routes/route-middleware.js';
import '../lounge.css';

const MESSAGES: Record<RedirectNotice, { title: string; text: string }> = {
  'admin-only': {
    title: 'The admin area is for admins only',
    text: 'Your account is not an admin, so you were brought to your lounge instead. If you need the admin area, ask an admin to change your role.',
  },
};

/** Why the user is on this page rather than the one they asked for, until they dismiss it. */
export function RedirectNoticeBanner({ notice, onDismiss }: { notice: RedirectNotice; onDismiss: () => void }) {
  const { title, text } = MESSAGES[notice];
  return (
    <div className="alert alert--info lounge-notice" role="status">
      <div className="lounge-notice__text">
        <strong className="lounge-notice__title">{title}</strong>
        <p className="lounge-notice__body">{text}</p>
      </div>
      <button type="button" className="button button--small lounge-notice__dismiss" onClick={onDismiss}>
        Dismiss<span className="visually-hidden"> this notice</span>
      </button>
    </div>
  );
}
