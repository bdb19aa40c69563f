import { GA4MP_LIMITS } from '../../../../lib/tools/ga4mp/limits.js';
import { fieldDomId, type FieldChecks, isObject, type Json } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
import { ParamsEditor } from './ParamsEditor.js';
import '../ga4mp.css';

interface Props {
  items: unknown[];
  basePath: string;
  onChange: (items: unknown[] | undefined) => void;
  checks: FieldChecks;
}

/** The e-commerce items of one event: each item is a set of item parameters. */
export function ItemsEditor({ items, basePath, onChange, checks }: Props) {
  const { messagesFor } = checks;
  const replace = (index: number, item: Json) => onChange(items.map((existing, at) => (at === index ? item : existing)));
  return (
    <fieldset className="ga4mp-items">
      <legend>
        Items{' '}
        <span className="muted">
          ({items.length} of at most {GA4MP_LIMITS.itemsPerEvent})
        </span>
      </legend>
      <FieldMessages id={`${fieldDomId(basePath)}-messages`} messages={messagesFor(basePath)} />
      <ol className="ga4mp-items__list">
        {items.map((item, index) => {
          const path = `${basePath}[${index}]`;
          return (
            <li key={index} className="ga4mp-item" id={fieldDomId(path)} tabIndex={-1} aria-label={`Item ${index + 1}`}>
              <div className="ga4mp-item__header">
                <strong>Item {index + 1}</strong>
                <button
                  type="button"
                  className="button button--ghost button--small button--danger"
                  onClick={() => onChange(items.length > 1 ? items.filter((_, at) => at !== index) : undefined)}
                >
                  Remove item
                </button>
              </div>
              <FieldMessages id={`${fieldDomId(path)}-messages`} messages={messagesFor(path)} />
              {isObject(item) ? (
                <ParamsEditor
                  params={item}
                  basePath={path}
                  label="item parameter"
                  checks={checks}
                  onChange={(next) => replace(index, next)}
                />
              ) : (
                <p className="muted">This item is not an object; edit it in the raw JSON.</p>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" className="button button--small" onClick={() => onChange([...items, { item_id: '', item_name: '' }])}>
        + Add item
      </button>
    </fieldset>
  );
}
