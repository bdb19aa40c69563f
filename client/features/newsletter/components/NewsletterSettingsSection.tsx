import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDuration, type NewsletterSettings, sendEtaSeconds } from '../../../../lib/api/newsletter-campaigns.js';
import { FormField } from '../../../components/FormField.js';
import { fieldErrors } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { newsletterSettingsQuery, useSaveNewsletterSettings } from '../campaigns-api.js';
import '../campaigns.css';

type LimitKey = 'maxPerSecond' | 'maxPerHour' | 'maxPerDay';
type Form = Omit<NewsletterSettings, LimitKey | 'replyTo'> & Record<LimitKey | 'replyTo', string>;

const LIMITS: { key: LimitKey; label: string }[] = [
  { key: 'maxPerSecond', label: 'Messages per second' },
  { key: 'maxPerHour', label: 'Messages per hour' },
  { key: 'maxPerDay', label: 'Messages per day' },
];

const toForm = (settings: NewsletterSettings): Form => ({
  senderName: settings.senderName,
  senderAddress: settings.senderAddress,
  replyTo: settings.replyTo ?? '',
  maxPerSecond: settings.maxPerSecond?.toString() ?? '',
  maxPerHour: settings.maxPerHour?.toString() ?? '',
  maxPerDay: settings.maxPerDay?.toString() ?? '',
});

/** An empty box is "no limit"; anything else goes to the server as typed (it says what is wrong with it). */
const limitValue = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

/**
 * The newsletter's sender and the mail server's sending limits, with the time a campaign to every
 * confirmed subscriber would take at those limits. Self-contained: mounted in /admin/settings.
 */
export function NewsletterSettingsSection() {
  const { data, isPending, isError, error, refetch } = useQuery(newsletterSettingsQuery());
  return (
    <section className="card newsletter-settings" aria-labelledby="newsletter-settings-title">
      <div>
        <h2 id="newsletter-settings-title">Newsletter sending</h2>
        <p className="muted">The sender of campaigns, and how fast your mail server lets you send. Empty limits mean no limit.</p>
      </div>
      {isPending ? (
        <div className="newsletter-settings__skeleton" aria-busy="true" aria-label="Loading newsletter settings">
          <div className="skeleton" />
          <div className="skeleton" />
          <div className="skeleton" />
        </div>
      ) : isError ? (
        <div className="alert alert--error campaigns__error" role="alert">
          <span>Could not load the newsletter settings. {error.message}</span>
          <button type="button" className="button button--small" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <SettingsForm key={JSON.stringify(data.settings)} initial={data.settings} confirmed={data.confirmedSubscribers} />
      )}
    </section>
  );
}

function SettingsForm({ initial, confirmed }: { initial: NewsletterSettings; confirmed: number }) {
  const toast = useToast();
  const [form, setForm] = useState<Form>(() => toForm(initial));
  const save = useSaveNewsletterSettings();
  const errors = fieldErrors(save.error);
  const set = (key: keyof Form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [key]: event.target.value }));

  const limits = {
    maxPerSecond: limitValue(form.maxPerSecond),
    maxPerHour: limitValue(form.maxPerHour),
    maxPerDay: limitValue(form.maxPerDay),
  };
  const valid = Object.values(limits).every((value) => value === null || (Number.isInteger(value) && value > 0));
  const eta = valid ? sendEtaSeconds(confirmed, limits) : null;

  return (
    <form
      className="form newsletter-settings__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { senderName: form.senderName, senderAddress: form.senderAddress, replyTo: form.replyTo.trim() || null, ...limits },
          {
            onSuccess: () => toast('Newsletter settings saved', 'success', { key: 'newsletter-settings' }),
            onError: (failure) => toast(`Not saved: ${failure.message}`, 'error', { key: 'newsletter-settings' }),
          },
        );
      }}
    >
      <div className="newsletter-settings__row">
        <FormField
          label="Sender name"
          value={form.senderName}
          onChange={set('senderName')}
          errors={errors.senderName}
          maxLength={100}
          required
        />
        <FormField
          label="Sender address"
          type="email"
          value={form.senderAddress}
          onChange={set('senderAddress')}
          errors={errors.senderAddress}
          required
        />
        <FormField
          label="Reply-to address"
          type="email"
          value={form.replyTo}
          onChange={set('replyTo')}
          errors={errors.replyTo}
          hint="Optional: where replies go."
        />
      </div>
      <fieldset className="newsletter-settings__limits">
        <legend>Sending limits of the mail server</legend>
        <div className="newsletter-settings__row">
          {LIMITS.map(({ key, label }) => (
            <FormField
              key={key}
              label={label}
              type="text"
              inputMode="numeric"
              placeholder="No limit"
              value={form[key]}
              onChange={set(key)}
              errors={errors[key]}
            />
          ))}
        </div>
      </fieldset>
      <p className="newsletter-settings__eta" aria-live="polite">
        {!valid
          ? 'Limits are whole numbers of at least 1, or empty.'
          : confirmed === 0
            ? 'Nobody has confirmed a subscription yet: a campaign would reach no one.'
            : eta === null
              ? `No limit: ${confirmed.toLocaleString('en-GB')} confirmed subscribers are sent to as fast as the mail server takes them.`
              : `ETA for ${confirmed.toLocaleString('en-GB')} confirmed subscribers: about ${formatDuration(eta)}.`}
      </p>
      <div>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save newsletter settings'}
        </button>
      </div>
    </form>
  );
}
