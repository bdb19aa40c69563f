import { useId, useState } from 'react';
import { GA4MP_LIMITS } from '../../../../lib/tools/ga4mp/limits.js';
import { GA4MP_TEMPLATES, templateNamed } from '../../../../lib/tools/ga4mp/templates.js';
import { fieldDomId, type FieldChecks, isObject, type Json } from '../draft.js';
import { EventCard } from './EventCard.js';
import { FieldMessages } from './FieldMessages.js';
import '../ga4mp.css';

interface Props {
  events: unknown;
  onChange: (events: unknown[]) => void;
  checks: FieldChecks;
}

/** The events list, with "Add event from template" (GA4's recommended events). */
export function EventsEditor({ events, onChange, checks }: Props) {
  const id = useId();
  const [template, setTemplate] = useState('purchase');
  const list = Array.isArray(events) ? events : [];
  const replace = (index: number, event: Json) => onChange(list.map((existing, at) => (at === index ? event : existing)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...list];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    onChange(next);
  };
  const chosen = templateNamed(template);
  return (
    <section className="ga4mp-section" aria-labelledby={`${id}-title`}>
      <div className="ga4mp-section__header">
        <h2 id={`${id}-title`}>
          Events{' '}
          <span className="muted ga4mp-count">
            ({list.length} of at most {GA4MP_LIMITS.eventsPerRequest})
          </span>
        </h2>
      </div>
      <div className="ga4mp-template" id={fieldDomId('events')} tabIndex={-1}>
        <div className="field">
          <label htmlFor={`${id}-template`}>Add event from template</label>
          <div className="ga4mp-inline">
            <select
              id={`${id}-template`}
              className="input"
              value={template}
              onChange={(event) => setTemplate(event.target.value)}
              aria-describedby={`${id}-template-hint`}
            >
              {GA4MP_TEMPLATES.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.label}
                </option>
              ))}
            </select>
            <button type="button" className="button button--primary" onClick={() => chosen && onChange([...list, chosen.build()])}>
              Add event
            </button>
            <button type="button" className="button" onClick={() => onChange([...list, { name: '', params: {} }])}>
              Add empty event
            </button>
          </div>
          <p className="field__hint" id={`${id}-template-hint`}>
            {chosen?.description}
          </p>
        </div>
        <FieldMessages id={`${id}-messages`} messages={checks.messagesFor('events')} />
      </div>
      {!Array.isArray(events) && events !== undefined ? (
        <p className="alert alert--error">events is not an array: fix it in the raw JSON.</p>
      ) : null}
      <ol className="ga4mp-events">
        {list.map((event, index) =>
          isObject(event) ? (
            <EventCard
              key={index}
              event={event}
              index={index}
              count={list.length}
              checks={checks}
              onChange={(next) => replace(index, next)}
              onMove={(by) => move(index, by)}
              onRemove={() => {
                // Removing the last event leaves a request GA4 refuses: say so at once.
                if (list.length === 1) checks.touch('events');
                onChange(list.filter((_, at) => at !== index));
              }}
            />
          ) : (
            <li key={index} className="alert alert--error">
              Event {index + 1} is not an object: fix it in the raw JSON.
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
