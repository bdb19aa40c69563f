import { useId, useState } from 'react';
import { GA4MP_LIMITS } from '../../../../lib/tools/ga4mp/limits.js';
import type { ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { fieldDomId, type FieldChecks, isObject, type Json, renameKey, withKey } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
import '../ga4mp.css';

interface Props {
  properties: unknown;
  onChange: (properties: Json | undefined) => void;
  checks: FieldChecks;
}

function PropertyRow({
  name,
  property,
  taken,
  onRename,
  onValue,
  onRemove,
  onTouch,
  messages,
}: {
  name: string;
  property: unknown;
  taken: (name: string) => boolean;
  onRename: (name: string) => void;
  onValue: (value: string) => void;
  onRemove: () => void;
  onTouch: (path: string) => void;
  messages: ValidationMessage[];
}) {
  const id = useId();
  // A taken name is held beside the name it was typed over until it is unique (see ParamsEditor).
  const [held, setHeld] = useState<{ over: string; text: string } | null>(null);
  const draftName = held?.over === name ? held.text : name;
  const duplicate = draftName !== name;
  const shown: ValidationMessage[] = duplicate
    ? [
        {
          fieldPath: `user_properties.${draftName}`,
          validationCode: 'NAME_DUPLICATED',
          description: `User property [${draftName}] already exists.`,
        },
        ...messages,
      ]
    : messages;
  const value = isObject(property) ? property.value : undefined;
  return (
    <li className="ga4mp-param">
      <div className="ga4mp-param__row ga4mp-param__row--property">
        <input
          id={fieldDomId(`user_properties.${name}`)}
          className="input ga4mp-param__name"
          aria-label="User property name"
          value={draftName}
          spellCheck={false}
          aria-invalid={shown.length ? true : undefined}
          aria-describedby={shown.length ? `${id}-messages` : undefined}
          onChange={(event) => {
            const next = event.target.value;
            if (next === name || !taken(next)) {
              setHeld(null);
              onTouch(`user_properties.${next}`);
              onRename(next);
            } else {
              setHeld({ over: name, text: next });
            }
          }}
          onBlur={() => onTouch(`user_properties.${name}`)}
        />
        <input
          id={fieldDomId(`user_properties.${name}.value`)}
          className="input ga4mp-param__value"
          aria-label={`${draftName || 'User property'} value`}
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(event) => {
            onTouch(`user_properties.${name}`);
            onValue(event.target.value);
          }}
          onBlur={() => onTouch(`user_properties.${name}`)}
        />
        <button
          type="button"
          className="button button--ghost button--small ga4mp-param__remove"
          aria-label={`Remove user property ${draftName}`}
          onClick={onRemove}
        >
          ×
        </button>
      </div>
      <FieldMessages id={`${id}-messages`} messages={shown} />
    </li>
  );
}

/** `user_properties`: `{ name: { value } }`. */
export function UserPropertiesEditor({ properties, onChange, checks }: Props) {
  const { messagesFor } = checks;
  const id = useId();
  const map = isObject(properties) ? properties : {};
  const entries = Object.entries(map);
  const update = (next: Json) => onChange(Object.keys(next).length ? next : undefined);
  const add = () => {
    let index = entries.length + 1;
    while (`property_${index}` in map) index += 1;
    update(withKey(map, `property_${index}`, { value: '' }));
  };
  return (
    <section className="ga4mp-section" aria-labelledby={`${id}-title`} id={fieldDomId('user_properties')} tabIndex={-1}>
      <h2 id={`${id}-title`}>
        User properties{' '}
        <span className="muted ga4mp-count">
          ({entries.length} of at most {GA4MP_LIMITS.userProperties})
        </span>
      </h2>
      <FieldMessages id={`${id}-messages`} messages={messagesFor('user_properties')} />
      {entries.length > 0 ? (
        <ul className="ga4mp-params__list">
          {entries.map(([name, property], index) => (
            <PropertyRow
              key={index}
              name={name}
              property={property}
              messages={[...messagesFor(`user_properties.${name}`), ...messagesFor(`user_properties.${name}.value`)]}
              taken={(candidate) => candidate in map}
              onRename={(next) => update(renameKey(map, name, next))}
              onValue={(value) => update(withKey(map, name, { ...(isObject(property) ? property : {}), value }))}
              onTouch={checks.touch}
              onRemove={() => update(withKey(map, name, undefined))}
            />
          ))}
        </ul>
      ) : (
        <p className="muted">No user properties.</p>
      )}
      <button type="button" className="button button--small" onClick={add}>
        + Add user property
      </button>
    </section>
  );
}
