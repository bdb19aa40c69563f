import { useId } from 'react';
import { GA4MP_LIMITS } from '../../../../lib/tools/ga4mp/limits.js';
import { fieldDomId, type FieldChecks, isObject, type Json, withKey } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
import { ItemsEditor } from './ItemsEditor.js';
import { ParamsEditor } from './ParamsEditor.js';
import '../ga4mp.css';

interface Props {
  event: Json;
  index: number;
  count: number;
  onChange: (event: Json) => void;
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
  checks: FieldChecks;
}

/** One event: its name, parameters and items. */
export function EventCard({ event, index, count, onChange, onRemove, onMove, checks }: Props) {
  const { messagesFor } = checks;
  const id = useId();
  const path = `events[${index}]`;
  const params = isObject(event.params) ? event.params : {};
  const items = Array.isArray(params.items) ? (params.items as unknown[]) : null;
  const nameMessages = messagesFor(`${path}.name`);
  const paramCount = Object.keys(params).length;
  const setParams = (next: Json) => onChange(withKey(event, 'params', next));
  return (
    <li className="ga4mp-event card" id={fieldDomId(path)} tabIndex={-1} aria-labelledby={`${id}-title`}>
      <div className="ga4mp-event__header">
        <h3 id={`${id}-title`}>
          Event {index + 1}
          {typeof event.name === 'string' && event.name ? <code className="ga4mp-event__name">{event.name}</code> : null}
        </h3>
        <div className="ga4mp-event__actions">
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label={`Move event ${index + 1} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="button button--ghost button--small"
            aria-label={`Move event ${index + 1} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button type="button" className="button button--ghost button--small button--danger" onClick={onRemove}>
            Remove
          </button>
        </div>
      </div>
      <FieldMessages id={`${id}-event-messages`} messages={messagesFor(path)} />
      <div className="field">
        <label htmlFor={fieldDomId(`${path}.name`)}>Event name</label>
        <input
          id={fieldDomId(`${path}.name`)}
          className="input"
          value={typeof event.name === 'string' ? event.name : ''}
          spellCheck={false}
          maxLength={200}
          aria-invalid={nameMessages.length ? true : undefined}
          aria-describedby={nameMessages.length ? `${id}-name-messages` : undefined}
          onChange={(change) => {
            checks.touch(`${path}.name`);
            onChange(withKey(event, 'name', change.target.value));
          }}
          onBlur={() => checks.touch(`${path}.name`)}
        />
        <FieldMessages id={`${id}-name-messages`} messages={nameMessages} />
      </div>
      <fieldset className="ga4mp-event__params" id={fieldDomId(`${path}.params`)} tabIndex={-1}>
        <legend>
          Parameters{' '}
          <span className="muted">
            ({paramCount} of at most {GA4MP_LIMITS.paramsPerEvent})
          </span>
        </legend>
        <FieldMessages id={`${id}-params-messages`} messages={messagesFor(`${path}.params`)} />
        <ParamsEditor
          params={params}
          basePath={`${path}.params`}
          exclude={['items']}
          checks={checks}
          onChange={(next) => setParams(items ? { ...next, items: params.items } : next)}
        />
      </fieldset>
      {items ? (
        <ItemsEditor
          items={items}
          basePath={`${path}.params.items`}
          checks={checks}
          onChange={(next) => setParams(withKey(params, 'items', next))}
        />
      ) : (
        <button
          type="button"
          className="button button--small"
          onClick={() => setParams(withKey(params, 'items', [{ item_id: '', item_name: '' }]))}
        >
          + Add items
        </button>
      )}
    </li>
  );
}
