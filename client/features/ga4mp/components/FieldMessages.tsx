import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import '../ga4mp.css';

/** The validation messages of one field, under it (ids for aria-describedby). */
export function FieldMessages({ id, messages }: { id: string; messages: ValidationMessage[] }) {
  if (messages.length === 0) return null;
  return (
    <p className="field__error ga4mp-field-messages" id={id}>
      {messages.map((message) => (
        <span key={`${message.validationCode}:${message.description}`}>
          <code>{message.validationCode}</code> {message.description}{' '}
        </span>
      ))}
    </p>
  );
}
