import { useId } from 'react';
import type { ValidationBehavior } from '../../../../lib/tools/ga4mp/limits.js';
import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { fieldDomId, focusField } from '../draft.js';
import { plural } from '../format.js';
import type { ServerCheck } from '../hooks/useSending.js';
import { FieldMessages } from './FieldMessages.js';
import '../ga4mp.css';

interface Props {
  /** Messages of the fields the user touched (all of them once a check was asked for). */
  shown: ValidationMessage[];
  /** Messages of fields not touched yet. */
  pending: ValidationMessage[];
  /** The last answer of "Validate on server", or null. */
  server: ServerCheck | null;
  validating: boolean;
  onValidateOnServer: () => void;
  onCheckAll: () => void;
  /** The body's validation_behavior as it stands (any JSON value: the raw editor may hold anything). */
  behavior: unknown;
  /** RELAXED removes the field (GA4's default); ENFORCE_RECOMMENDATIONS sets it. */
  onBehavior: (behavior: ValidationBehavior) => void;
  /** Messages about the field itself (an unknown value typed in the raw JSON). */
  behaviorMessages: ValidationMessage[];
}

/**
 * GA4's validation behaviour (`validation_behavior` in the body): it decides what both the live check
 * and GA4's validation server hold the payload to. Google's validating-events guide: strict checks
 * during development, no field in production.
 */
function BehaviorChoice({
  behavior,
  onBehavior,
  messages,
}: {
  behavior: unknown;
  onBehavior: Props['onBehavior'];
  messages: ValidationMessage[];
}) {
  const id = useId();
  const strict = behavior === 'ENFORCE_RECOMMENDATIONS';
  const other = behavior !== undefined && behavior !== 'RELAXED' && !strict;
  return (
    <div className="field ga4mp-behavior">
      <label htmlFor={fieldDomId('validation_behavior')}>Validation behaviour</label>
      <select
        id={fieldDomId('validation_behavior')}
        className="input"
        value={other ? '' : strict ? 'ENFORCE_RECOMMENDATIONS' : 'RELAXED'}
        aria-describedby={`${id}-hint${messages.length ? ` ${id}-messages` : ''}`}
        aria-invalid={messages.length ? true : undefined}
        onChange={(event) => onBehavior(event.target.value as ValidationBehavior)}
      >
        {other ? (
          <option value="" disabled>
            {typeof behavior === 'string' ? behavior : JSON.stringify(behavior)} (not a GA4 value)
          </option>
        ) : null}
        <option value="RELAXED">Relaxed</option>
        <option value="ENFORCE_RECOMMENDATIONS">Strict</option>
      </select>
      <p className="field__hint" id={`${id}-hint`}>
        {strict
          ? 'Enforces recommendations: also checks the client_id format, recommended events’ required parameters and currency with value.'
          : 'GA4’s default; Google advises strict while developing.'}
      </p>
      <FieldMessages id={`${id}-messages`} messages={messages} />
    </div>
  );
}

/** The field paths of some messages, each once, in order. */
const pathsOf = (messages: ValidationMessage[]) => [...new Set(messages.map((message) => message.fieldPath))];

/** "2 validation messages", "3 fields still to fill in": what the status says, here and in the summary. */
export function validationStatus(
  shown: ValidationMessage[],
  pending: ValidationMessage[],
): { tone: 'valid' | 'invalid' | 'pending'; text: string } {
  if (shown.length > 0) return { tone: 'invalid', text: plural(shown.length, 'validation message') };
  if (pending.length > 0) return { tone: 'pending', text: `${plural(pathsOf(pending).length, 'field')} still to fill in` };
  return { tone: 'valid', text: 'Valid: no validation messages.' };
}

function FieldLink({ path }: { path: string }) {
  return (
    <button type="button" className="ga4mp-message__link" onClick={() => focusField(path)}>
      <code className="ga4mp-message__path">{path}</code>
    </button>
  );
}

function MessageList({ messages }: { messages: ValidationMessage[] }) {
  return (
    <ul className="ga4mp-messages">
      {messages.map((message, index) => (
        <li key={`${message.fieldPath}-${message.validationCode}-${index}`} className="ga4mp-message">
          <FieldLink path={message.fieldPath} /> <span className="ga4mp-message__code">{message.validationCode}</span>{' '}
          <span className="ga4mp-message__text">{message.description}</span>
        </li>
      ))}
    </ul>
  );
}

function serverSummary(server: ServerCheck): string {
  const answer = server.messages.length === 0 ? 'valid' : plural(server.messages.length, 'message');
  if (server.outdated) return `Server validation: ${answer} — for the payload as it was (it changed since).`;
  return server.matches
    ? `Server validation: ${answer}, same as the live check.`
    : `Server validation: ${answer} — differs from the live check.`;
}

/**
 * Live local validation (the same rules as the server), each message linked to its field. A fresh
 * payload is incomplete on purpose: fields the user has not touched are listed as still to fill in,
 * not as errors, until Validate or Send asks for everything.
 */
export function ValidationPanel({
  shown,
  pending,
  server,
  validating,
  onValidateOnServer,
  onCheckAll,
  behavior,
  onBehavior,
  behaviorMessages,
}: Props) {
  const status = validationStatus(shown, pending);
  const pendingPaths = pathsOf(pending);
  return (
    <section id="ga4mp-validation" className="ga4mp-section ga4mp-validation" aria-labelledby="ga4mp-validation-title">
      <div className="ga4mp-section__header">
        <h2 id="ga4mp-validation-title" tabIndex={-1}>
          Validation
        </h2>
        <button type="button" className="button button--small" onClick={onValidateOnServer} disabled={validating}>
          {validating ? 'Validating…' : 'Validate on server'}
        </button>
      </div>
      <BehaviorChoice behavior={behavior} onBehavior={onBehavior} messages={behaviorMessages} />
      <div aria-live="polite" aria-atomic="false" className="ga4mp-validation__body ga4mp-scroll">
        {status.tone === 'valid' ? (
          <p className="ga4mp-valid" role="status">
            <span aria-hidden="true">✓</span> {status.text}
          </p>
        ) : null}
        {shown.length > 0 ? (
          <>
            <p className="ga4mp-invalid" role="status">
              {status.text}
            </p>
            <MessageList messages={shown} />
          </>
        ) : null}
        {pendingPaths.length > 0 ? (
          <div className="ga4mp-pending">
            <p className="ga4mp-pending__title" role={shown.length ? undefined : 'status'}>
              {shown.length ? `Also ${plural(pendingPaths.length, 'field')} still to fill in` : status.text}
            </p>
            <ul className="ga4mp-pending__list">
              {pendingPaths.map((path) => (
                <li key={path}>
                  <FieldLink path={path} />
                </li>
              ))}
            </ul>
            <p className="ga4mp-pending__hint">
              Checked once you edit them, or when you validate or send.{' '}
              <button type="button" className="ga4mp-pending__check" onClick={onCheckAll}>
                Check now
              </button>
            </p>
          </div>
        ) : null}
        {server ? (
          <p className="ga4mp-server-result muted" role="status">
            {serverSummary(server)}
          </p>
        ) : null}
      </div>
    </section>
  );
}
