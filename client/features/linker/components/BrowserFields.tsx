import { useId } from 'react';
import { type BrowserErrors, type BrowserForm, currentBrowser, toLocalInput } from '../browser-form.js';
import '../linker.css';

/** User agent, timezone offset, language and time: what the fingerprint is made of. */
export function BrowserFields({
  value,
  errors = {},
  onChange,
  timeLabel = 'Time',
}: {
  value: BrowserForm;
  errors?: BrowserErrors;
  onChange: (next: BrowserForm) => void;
  timeLabel?: string;
}) {
  const id = useId();
  const set = (field: keyof BrowserForm) => (event: { target: { value: string } }) => onChange({ ...value, [field]: event.target.value });
  const describedBy = (field: keyof BrowserForm, hint?: boolean) =>
    [hint ? `${id}-${field}-hint` : '', errors[field] ? `${id}-${field}-error` : ''].filter(Boolean).join(' ') || undefined;
  const error = (field: keyof BrowserForm) =>
    errors[field] ? (
      <p className="field__error" id={`${id}-${field}-error`} role="alert">
        {errors[field]}
      </p>
    ) : null;
  return (
    <fieldset className="linker-browser">
      <legend>Browser</legend>
      <div className="field linker-browser__ua">
        <label htmlFor={`${id}-ua`}>User agent</label>
        <textarea
          id={`${id}-ua`}
          rows={2}
          value={value.userAgent}
          onChange={set('userAgent')}
          spellCheck={false}
          aria-describedby={describedBy('userAgent')}
          aria-invalid={errors.userAgent ? true : undefined}
        />
        {error('userAgent')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-tz`}>Timezone offset (minutes)</label>
        <input
          id={`${id}-tz`}
          type="text"
          inputMode="numeric"
          value={value.timezoneOffset}
          onChange={set('timezoneOffset')}
          aria-describedby={describedBy('timezoneOffset', true)}
          aria-invalid={errors.timezoneOffset ? true : undefined}
        />
        <p className="field__hint" id={`${id}-timezoneOffset-hint`}>
          new Date().getTimezoneOffset(): UTC minus local time
        </p>
        {error('timezoneOffset')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-lang`}>Language</label>
        <input
          id={`${id}-lang`}
          type="text"
          value={value.language}
          onChange={set('language')}
          spellCheck={false}
          aria-describedby={describedBy('language')}
          aria-invalid={errors.language ? true : undefined}
        />
        {error('language')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-time`}>{timeLabel}</label>
        <div className="linker-browser__time">
          <input
            id={`${id}-time`}
            className="input"
            type="datetime-local"
            step={1}
            value={value.time}
            onChange={set('time')}
            aria-describedby={describedBy('time', true)}
            aria-invalid={errors.time ? true : undefined}
          />
          <button type="button" className="button button--small" onClick={() => onChange({ ...value, time: toLocalInput(Date.now()) })}>
            Now
          </button>
        </div>
        <p className="field__hint" id={`${id}-time-hint`}>
          Your local time; only the minute counts.
        </p>
        {error('time')}
      </div>
      <button type="button" className="button button--small button--ghost linker-browser__reset" onClick={() => onChange(currentBrowser())}>
        Use this browser
      </button>
    </fieldset>
  );
}
