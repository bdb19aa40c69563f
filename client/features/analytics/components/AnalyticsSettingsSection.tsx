import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ANALYTICS_LIMITS, type AnalyticsSettings } from '../../../../lib/api/analytics.js';
import { SITE_SETTINGS_KEY } from '../../../app/queries.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { analyticsSettingsQuery, saveAnalyticsSettings } from '../api.js';
import '../analytics.css';

interface Draft {
  ignoreIps: string;
  ignorePaths: string;
  retentionDays: string;
  respectPrivacySignals: boolean;
  countAdmins: boolean;
}

const toDraft = (settings: AnalyticsSettings): Draft => ({
  ignoreIps: settings.ignoreIps.join('\n'),
  ignorePaths: settings.ignorePaths.join('\n'),
  retentionDays: String(settings.retentionDays),
  respectPrivacySignals: settings.respectPrivacySignals,
  countAdmins: settings.countAdmins,
});

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The analytics settings as one card for /admin/settings: ignore list, retention, privacy signals,
 * admins. Self-contained (its own query and mutation); every save is audited by the server.
 */
export function AnalyticsSettingsSection() {
  const headingId = useId();
  const settings = useQuery(analyticsSettingsQuery());
  const [edited, setDraft] = useState<Draft | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: saveAnalyticsSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(analyticsSettingsQuery().queryKey, saved);
      // The public site settings carry the privacy-signal choice the tracker reads.
      void queryClient.invalidateQueries({ queryKey: SITE_SETTINGS_KEY, exact: true });
      setDraft(toDraft(saved));
      toast('Analytics settings saved', 'success', { key: 'analytics-settings' });
    },
    onError: () => toast('Analytics settings were not saved', 'error', { key: 'analytics-settings' }),
  });

  // The form shows the stored settings until the admin edits a field.
  const draft = edited ?? (settings.data ? toDraft(settings.data) : null);
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    save.mutate({
      ignoreIps: lines(draft.ignoreIps),
      ignorePaths: lines(draft.ignorePaths),
      retentionDays: Number(draft.retentionDays),
      respectPrivacySignals: draft.respectPrivacySignals,
      countAdmins: draft.countAdmins,
    });
  };

  return (
    <section className="card analytics-settings" aria-labelledby={headingId} data-analytics-settings>
      <h2 id={headingId}>Analytics</h2>
      <p className="muted">First-party, cookie-less page views. Changes apply on every instance within a few seconds.</p>
      {settings.isPending ? (
        <div className="skeleton analytics__skeleton-chart" aria-label="Loading analytics settings" />
      ) : settings.isError ? (
        <div className="alert alert--error" role="alert">
          Analytics settings could not be loaded.{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => void settings.refetch()}>
            Try again
          </button>
        </div>
      ) : draft ? (
        <form onSubmit={submit} noValidate>
          <FormAlert error={save.error} />
          <div className="analytics-settings__lists">
            <Field
              label="Ignored IP addresses and ranges"
              hint={`One per line: 203.0.113.7, 10.0.0.0/8, 2001:db8::/32 (at most ${ANALYTICS_LIMITS.ignoreEntries}).`}
              errors={errors.ignoreIps}
            >
              {(control) => (
                <textarea
                  {...control}
                  className="input"
                  spellCheck={false}
                  value={draft.ignoreIps}
                  onChange={(event) => setDraft({ ...draft, ignoreIps: event.target.value })}
                />
              )}
            </Field>
            <Field label="Ignored path prefixes" hint="One per line, starting with /: /internal, /preview." errors={errors.ignorePaths}>
              {(control) => (
                <textarea
                  {...control}
                  className="input"
                  spellCheck={false}
                  value={draft.ignorePaths}
                  onChange={(event) => setDraft({ ...draft, ignorePaths: event.target.value })}
                />
              )}
            </Field>
          </div>
          <Field
            label="Keep daily totals for (days)"
            hint={`Between ${ANALYTICS_LIMITS.minRetentionDays} and ${ANALYTICS_LIMITS.maxRetentionDays}; older days are deleted.`}
            errors={errors.retentionDays}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                type="number"
                inputMode="numeric"
                min={ANALYTICS_LIMITS.minRetentionDays}
                max={ANALYTICS_LIMITS.maxRetentionDays}
                value={draft.retentionDays}
                onChange={(event) => setDraft({ ...draft, retentionDays: event.target.value })}
              />
            )}
          </Field>
          <div className="analytics-settings__checks">
            <label>
              <input
                type="checkbox"
                checked={draft.respectPrivacySignals}
                onChange={(event) => setDraft({ ...draft, respectPrivacySignals: event.target.checked })}
              />
              <span>Do not count browsers that send Global Privacy Control or Do Not Track</span>
            </label>
            <label>
              <input
                type="checkbox"
                checked={draft.countAdmins}
                onChange={(event) => setDraft({ ...draft, countAdmins: event.target.checked })}
              />
              <span>Count page views of signed-in admins</span>
            </label>
          </div>
          <div className="analytics-settings__actions">
            <button type="submit" className="button" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save analytics settings'}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
