import { useId } from 'react';
import '../linker.css';

/** The browser facts as the form holds them (text, so a half-typed number is not lost). */
export interface BrowserForm {
  userAgent: string;
  timezoneOffset: string;
  language: string;
  /** `YYYY-MM-DDTHH:MM:SS` in the viewer's local time, as a datetime-local input holds it. */
  time: string;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A datetime-local value for an instant, in this browser's time zone. */
export function toLocalInput(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The current browser, as gtag.js would see it on this page. */
export function currentBrowser(now = Date.now()): BrowserForm {
  return {
    userAgent: navigator.userAgent,
    timezoneOffset: String(new Date(now).getTimezoneOffset()),
    language: navigator.language ?? '',
    time: toLocalInput(now),
  };
}

export type BrowserErrors = Partial<Record<keyof BrowserForm, string>>;

/** Reads the form; errors name the field that is wrong. */
export function parseBrowserForm(
  form: BrowserForm,
):
  | { ok: true; browser: { userAgent: string; timezoneOffset: number; language: string }; time: number }
  | { ok: false; errors: BrowserErrors } {
  const errors: BrowserErrors = {};
  const offset = Number(form.timezoneOffset.trim());
  if (form.timezoneOffset.trim() === '' || !Number.isInteger(offset) || offset < -840 || offset > 840) {
    errors.timezoneOffset = 'Whole minutes between -840 and 840, as Date.getTimezoneOffset() gives (Berlin in winter: -60).';
  }
  if (form.userAgent.length > 2000) errors.userAgent = 'At most 2000 characters.';
  if (form.language.length > 100) errors.language = 'At most 100 characters.';
  const time = Date.parse(form.time);
  if (!form.time || Number.isNaN(time)) errors.time = 'Enter a date and time.';
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, browser: { userAgent: form.userAgent, timezoneOffset: offset, language: form.language }, time };
}

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
