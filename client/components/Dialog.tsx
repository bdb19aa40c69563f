import { type ReactNode, useEffect, useEffectEvent, useId, useRef } from 'react';
import './Dialog.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface Props {
  /** The dialog's heading; it also names the dialog and takes the focus when it opens. */
  title: ReactNode;
  onClose: () => void;
  /** `drawer` slides in from the right (full screen on phones); `centered` is a classic modal. */
  placement?: 'drawer' | 'centered';
  /** Where focus goes when the dialog closes; defaults to the element focused when it opened. */
  returnFocus?: () => HTMLElement | null | undefined;
  /** Extra words for the Close button's accessible name ("Close user details"). */
  closeLabel?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog: aria-modal with a backdrop, the focus moved to its heading on open and kept
 * inside with Tab, Escape and the Close button to leave, focus returned to the opener on close,
 * and the page behind held still. Content that handles Escape itself (a confirmation that backs
 * out first) stops the event from reaching the dialog.
 *
 * Not a native <dialog> with showModal(): that puts the dialog in the top layer, above the
 * toasts, and makes the rest of the page (the toaster's live region with it) inert, so results of
 * actions taken in the dialog would be neither seen nor announced.
 */
export function Dialog({ title, onClose, placement = 'drawer', returnFocus, closeLabel, className, children }: Props) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const close = useEffectEvent(() => onClose());
  const returnTarget = useEffectEvent(() => returnFocus?.());

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    headingRef.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      const target = returnTarget() ?? opener;
      // After the dialog is gone from the DOM: the target may be re-rendered by the same update.
      requestAnimationFrame(() => {
        if (target?.isConnected) target.focus();
      });
    };
  }, []);

  // Escape and the Tab trap. Listened to on the document, after React's own handlers (which run at
  // the root): content that handles Escape itself (a confirmation backing out) stops the event
  // before it gets here. A dialog is not an interactive element, so no JSX key handler on it.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const panel = panelRef.current;
      if (!panel || !(event.target instanceof Node) || !panel.contains(event.target)) return;
      if (event.key === 'Escape') {
        close();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (focusable.length === 0) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === headingRef.current)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      {/* Pointer-only way to close; keyboard users have Escape and the Close button. */}
      <div className="dialog__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={panelRef}
        className={['dialog', `dialog--${placement}`, className ?? ''].filter(Boolean).join(' ')}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
      >
        <div className="dialog__header">
          <h2 id={titleId} ref={headingRef} tabIndex={-1}>
            {title}
          </h2>
          <button type="button" className="button button--ghost button--small" onClick={onClose}>
            Close{closeLabel ? <span className="visually-hidden"> {closeLabel}</span> : null}
          </button>
        </div>
        <div className="dialog__body">{children}</div>
      </div>
    </>
  );
}
