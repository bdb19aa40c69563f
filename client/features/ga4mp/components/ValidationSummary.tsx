import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { validationStatus } from './ValidationPanel.js';
import '../ga4mp.css';

/** Scrolls to the validation panel and moves the focus there, so the next Tab reaches its first message. */
function showValidation() {
  const heading = document.getElementById('ga4mp-validation-title');
  heading?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  heading?.focus({ preventScroll: true });
}

/**
 * Below the two-column width the validation panel comes after the whole form: this bar stays at the
 * top of the screen while the form scrolls, says where the payload stands and jumps to the messages.
 * Not a live region: the panel itself announces changes.
 */
export function ValidationSummary({ shown, pending }: { shown: ValidationMessage[]; pending: ValidationMessage[] }) {
  const status = validationStatus(shown, pending);
  return (
    <div className={`ga4mp-status ga4mp-status--${status.tone}`}>
      <span className="ga4mp-status__text">
        {status.tone === 'valid' ? <span aria-hidden="true">✓ </span> : null}
        {status.tone === 'valid' ? 'Valid' : status.text}
      </span>{' '}
      {status.tone === 'valid' ? null : (
        <button type="button" className="button button--small ga4mp-status__link" onClick={showValidation}>
          Show<span className="visually-hidden">{status.tone === 'invalid' ? ' the validation messages' : ' the fields to fill in'}</span>
        </button>
      )}
    </div>
  );
}
