import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { focusField } from '../draft.js';
import '../ga4mp.css';

interface Props {
  messages: ValidationMessage[];
  /** The last answer of "Validate on server", or null. */
  server: { messages: ValidationMessage[]; matches: boolean } | null;
  validating: boolean;
  onValidateOnServer: () => void;
}

function MessageList({ messages }: { messages: ValidationMessage[] }) {
  return (
    <ul className="ga4mp-messages">
      {messages.map((message, index) => (
        <li key={`${message.fieldPath}-${message.validationCode}-${index}`} className="ga4mp-message">
          <button type="button" className="ga4mp-message__link" onClick={() => focusField(message.fieldPath)}>
            <code className="ga4mp-message__path">{message.fieldPath}</code>
          </button>
          <span className="ga4mp-message__code">{message.validationCode}</span>
          <span className="ga4mp-message__text">{message.description}</span>
        </li>
      ))}
    </ul>
  );
}

/** Live local validation (the same rules as the server), each message linked to its field. */
export function ValidationPanel({ messages, server, validating, onValidateOnServer }: Props) {
  return (
    <section className="ga4mp-section ga4mp-validation" aria-labelledby="ga4mp-validation-title">
      <div className="ga4mp-section__header">
        <h2 id="ga4mp-validation-title">Validation</h2>
        <button type="button" className="button button--small" onClick={onValidateOnServer} disabled={validating}>
          {validating ? 'Validating…' : 'Validate on server'}
        </button>
      </div>
      <div aria-live="polite" aria-atomic="false">
        {messages.length === 0 ? (
          <p className="ga4mp-valid" role="status">
            <span aria-hidden="true">✓</span> Valid: no validation messages.
          </p>
        ) : (
          <>
            <p className="ga4mp-invalid" role="status">
              {messages.length} validation {messages.length === 1 ? 'message' : 'messages'}
            </p>
            <MessageList messages={messages} />
          </>
        )}
        {server ? (
          <p className="ga4mp-server-result muted" role="status">
            Server validation:{' '}
            {server.messages.length === 0 ? 'valid' : `${server.messages.length} ${server.messages.length === 1 ? 'message' : 'messages'}`}
            {server.matches ? ', same as the live check.' : ' — differs from the live check (the payload changed since).'}
          </p>
        ) : null}
      </div>
    </section>
  );
}
