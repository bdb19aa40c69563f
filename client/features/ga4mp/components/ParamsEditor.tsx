import { useEffect, useId, useState } from 'react';
import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { fieldDomId, type Json, renameKey, withKey } from '../draft.js';
import { FieldMessages, type MessagesFor } from './FieldMessages.js';
import '../ga4mp.css';

type ValueType = 'text' | 'number' | 'boolean';

const typeOf = (value: unknown): ValueType | 'json' =>
  typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : typeof value === 'string' ? 'text' : 'json';

/** Text typed in a number field stays text until it is a number, so GA4's rules see what will be sent. */
function convert(text: string, type: ValueType): unknown {
  if (type === 'boolean') return text === 'true';
  if (type === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

interface RowProps {
  name: string;
  value: unknown;
  path: string;
  taken: (name: string) => boolean;
  onRename: (name: string) => void;
  onValue: (value: unknown) => void;
  onRemove: () => void;
  messages: ValidationMessage[];
  label: string;
}

function ParamRow({ name, value, path, taken, onRename, onValue, onRemove, messages, label }: RowProps) {
  const id = useId();
  const [draftName, setDraftName] = useState(name);
  useEffect(() => setDraftName(name), [name]);
  const duplicate = draftName !== name && taken(draftName);
  const type = typeOf(value);
  const shown: ValidationMessage[] = duplicate
    ? [
        { fieldPath: path, validationCode: 'NAME_DUPLICATED', description: `[${draftName}] is already a ${label}; names must be unique.` },
        ...messages,
      ]
    : messages;
  return (
    <li className="ga4mp-param">
      <div className="ga4mp-param__row">
        <input
          className="input ga4mp-param__name"
          id={fieldDomId(path)}
          aria-label={`${label} name`}
          value={draftName}
          spellCheck={false}
          aria-invalid={shown.length ? true : undefined}
          aria-describedby={shown.length ? `${id}-messages` : undefined}
          onChange={(event) => {
            const next = event.target.value;
            setDraftName(next);
            if (next === name || !taken(next)) onRename(next);
          }}
        />
        {type === 'boolean' ? (
          <select
            className="input ga4mp-param__value"
            aria-label={`${draftName || label} value`}
            value={String(value)}
            onChange={(event) => onValue(event.target.value === 'true')}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : type === 'json' ? (
          <input
            className="input ga4mp-param__value"
            aria-label={`${draftName || label} value`}
            value={JSON.stringify(value) ?? ''}
            readOnly
            title="Edit this value in the raw JSON"
          />
        ) : (
          <input
            className="input ga4mp-param__value"
            aria-label={`${draftName || label} value`}
            inputMode={type === 'number' ? 'decimal' : undefined}
            value={String(value)}
            onChange={(event) => onValue(convert(event.target.value, type))}
          />
        )}
        <select
          className="input ga4mp-param__type"
          aria-label={`${draftName || label} type`}
          value={type}
          onChange={(event) => onValue(convert(type === 'json' ? '' : String(value), event.target.value as ValueType))}
        >
          <option value="text">text</option>
          <option value="number">number</option>
          <option value="boolean">true/false</option>
          {type === 'json' ? <option value="json">JSON</option> : null}
        </select>
        <button type="button" className="button button--ghost button--small" aria-label={`Remove ${label} ${draftName}`} onClick={onRemove}>
          ×
        </button>
      </div>
      <FieldMessages id={`${id}-messages`} messages={shown} />
    </li>
  );
}

interface Props {
  params: Json;
  basePath: string;
  onChange: (params: Json) => void;
  messagesFor: MessagesFor;
  /** Keys edited elsewhere (items). */
  exclude?: string[];
  label?: string;
}

/** Name/value rows for event parameters or item parameters, editing the JSON object in place. */
export function ParamsEditor({ params, basePath, onChange, messagesFor, exclude = [], label = 'parameter' }: Props) {
  const entries = Object.entries(params).filter(([key]) => !exclude.includes(key));
  const addParam = () => {
    let index = entries.length + 1;
    while (`param_${index}` in params) index += 1;
    onChange(withKey(params, `param_${index}`, ''));
  };
  return (
    <div className="ga4mp-params">
      {entries.length > 0 ? (
        <ul className="ga4mp-params__list">
          {entries.map(([name, value], index) => (
            <ParamRow
              key={index}
              name={name}
              value={value}
              label={label}
              path={`${basePath}.${name}`}
              messages={messagesFor(`${basePath}.${name}`)}
              taken={(candidate) => candidate in params}
              onRename={(next) => onChange(renameKey(params, name, next))}
              onValue={(next) => onChange(withKey(params, name, next))}
              onRemove={() => onChange(withKey(params, name, undefined))}
            />
          ))}
        </ul>
      ) : null}
      <button type="button" className="button button--small" onClick={addParam}>
        + Add {label}
      </button>
    </div>
  );
}
