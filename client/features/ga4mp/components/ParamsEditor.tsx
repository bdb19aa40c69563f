import { useId, useState } from 'react';
import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { fieldDomId, type FieldChecks, type Json, renameKey, withKey } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
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
  /** Marks a path touched: the row's own, or the one its new name will have. */
  onTouch: (path: string) => void;
  messages: ValidationMessage[];
  label: string;
}

/**
 * A name that is already taken cannot become a key of the object, so it is held here, beside the
 * name it was typed over, until the user makes it unique. When the name changes from outside (the
 * raw JSON, another row), the held text no longer belongs to it and the real name shows again.
 */
interface HeldName {
  over: string;
  text: string;
}

function ParamRow({ name, value, path, taken, onRename, onValue, onRemove, onTouch, messages, label }: RowProps) {
  const id = useId();
  const [held, setHeld] = useState<HeldName | null>(null);
  const shownName = held?.over === name ? held.text : name;
  const duplicate = shownName !== name;
  const type = typeOf(value);
  const shown: ValidationMessage[] = duplicate
    ? [
        { fieldPath: path, validationCode: 'NAME_DUPLICATED', description: `[${shownName}] is already a ${label}; names must be unique.` },
        ...messages,
      ]
    : messages;
  const parent = path.slice(0, path.length - name.length);
  const valueLabel = `${shownName || label} value`;
  return (
    <li className="ga4mp-param">
      <div className="ga4mp-param__row">
        <input
          className="input ga4mp-param__name"
          id={fieldDomId(path)}
          aria-label={`${label} name`}
          value={shownName}
          spellCheck={false}
          aria-invalid={shown.length ? true : undefined}
          aria-describedby={shown.length ? `${id}-messages` : undefined}
          onChange={(event) => {
            const next = event.target.value;
            if (next === name || !taken(next)) {
              setHeld(null);
              onTouch(`${parent}${next}`);
              onRename(next);
            } else {
              setHeld({ over: name, text: next });
            }
          }}
          onBlur={() => onTouch(path)}
        />
        {type === 'boolean' ? (
          <select
            className="input ga4mp-param__value"
            aria-label={valueLabel}
            value={String(value)}
            onChange={(event) => {
              onTouch(path);
              onValue(event.target.value === 'true');
            }}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : type === 'json' ? (
          <input
            className="input ga4mp-param__value"
            aria-label={valueLabel}
            value={JSON.stringify(value) ?? ''}
            readOnly
            title="Edit this value in the raw JSON"
          />
        ) : type === 'number' ? (
          <input
            className="input ga4mp-param__value"
            aria-label={valueLabel}
            inputMode="decimal"
            value={String(value)}
            onChange={(event) => {
              onTouch(path);
              onValue(convert(event.target.value, type));
            }}
            onBlur={() => onTouch(path)}
          />
        ) : (
          // Text values wrap and grow with their content: a page_location URL is read whole, not through a slit.
          <textarea
            className="input ga4mp-param__value ga4mp-param__value--text"
            aria-label={valueLabel}
            rows={1}
            spellCheck={false}
            value={String(value)}
            onChange={(event) => {
              onTouch(path);
              onValue(event.target.value);
            }}
            onBlur={() => onTouch(path)}
          />
        )}
        <select
          className="input ga4mp-param__type"
          aria-label={`${shownName || label} type`}
          value={type}
          onChange={(event) => {
            onTouch(path);
            onValue(convert(type === 'json' ? '' : String(value), event.target.value as ValueType));
          }}
        >
          <option value="text">text</option>
          <option value="number">number</option>
          <option value="boolean">true/false</option>
          {type === 'json' ? <option value="json">JSON</option> : null}
        </select>
        <button
          type="button"
          className="button button--ghost button--small ga4mp-param__remove"
          aria-label={`Remove ${label} ${shownName}`}
          onClick={onRemove}
        >
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
  checks: FieldChecks;
  /** Keys edited elsewhere (items). */
  exclude?: string[];
  label?: string;
}

/** Name/value rows for event parameters or item parameters, editing the JSON object in place. */
export function ParamsEditor({ params, basePath, onChange, checks, exclude = [], label = 'parameter' }: Props) {
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
              messages={checks.messagesFor(`${basePath}.${name}`)}
              taken={(candidate) => candidate in params}
              onTouch={checks.touch}
              onRename={(next) => onChange(renameKey(params, name, next))}
              onValue={(next) => onChange(withKey(params, name, next))}
              onRemove={() => {
                // What the removal breaks (an item left without item_id) is reported on the parents of this path.
                checks.touch(`${basePath}.${name}`);
                onChange(withKey(params, name, undefined));
              }}
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
