import { useState } from 'react';
import { Field } from '../../../../client/components/FormField.js';
import { Icon } from '../../../../client/components/Icon.js';
import { SegmentedControl } from '../../../../client/components/SegmentedControl.js';
import { useToast } from '../../../../client/components/Toaster.js';
import { useDesktop } from '../state/desktop-context.js';
import type { Settings } from '../types.js';
import { UpdatePanel } from './UpdatePanel.js';

export function SettingsView() {
  const { settings, saveSettings, info } = useDesktop();
  const toast = useToast();
  const [draft, setDraft] = useState<Settings>(settings);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => setDraft((current) => ({ ...current, [key]: value }));

  const submit = async (next: Settings) => {
    setSaving(true);
    setError(null);
    try {
      await saveSettings(next);
      toast('Settings saved.', 'success', { key: 'settings' });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSaving(false);
    }
  };
  const errorsFor = (prefix: string) => (error?.startsWith(prefix) ? [error] : undefined);

  return (
    <section className="desk-page" aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings</h1>
      <form
        className="card desk-card form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(draft);
        }}
      >
        <Field label="Hitscope site" hint="Where licences are checked and updates come from." errors={errorsFor('Site address')}>
          {(control) => (
            <input
              {...control}
              className="input"
              value={draft.siteUrl}
              onChange={(event) => set('siteUrl', event.target.value)}
              spellCheck={false}
            />
          )}
        </Field>
        <Field
          label="Path to adb"
          hint="Empty: adb is looked for on PATH, in ANDROID_HOME and in the SDK’s usual folders."
          errors={errorsFor('Path to adb')}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              value={draft.adbPath ?? ''}
              placeholder="/home/you/Android/Sdk/platform-tools/adb"
              onChange={(event) => set('adbPath', event.target.value || null)}
              spellCheck={false}
            />
          )}
        </Field>
        <SegmentedControl
          label="Update channel"
          showLabel
          value={draft.updateChannel}
          onChange={(value) => set('updateChannel', value)}
          options={[
            { value: 'stable', label: 'Stable' },
            { value: 'beta', label: 'Beta' },
          ]}
        />
        <SegmentedControl
          label="Colour mode"
          showLabel
          value={draft.colorMode}
          onChange={(value) => {
            set('colorMode', value);
            void submit({ ...draft, colorMode: value });
          }}
          options={[
            { value: 'system', label: 'System', icon: <Icon name="monitor" size={16} /> },
            { value: 'light', label: 'Light', icon: <Icon name="sun" size={16} /> },
            { value: 'dark', label: 'Dark', icon: <Icon name="moon" size={16} /> },
          ]}
        />
        {error && !errorsFor('Site address') && !errorsFor('Path to adb') ? (
          <div className="alert alert--error" role="alert">
            {error}
          </div>
        ) : null}
        <div className="desk-form-actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
      <UpdatePanel />
      <h2>About</h2>
      <dl className="desk-about">
        <div>
          <dt>Version</dt>
          <dd data-testid="app-version">{info.version}</dd>
        </div>
        <div>
          <dt>Build</dt>
          <dd>
            {info.platform} {info.arch}, updates as .{info.format}
          </dd>
        </div>
        <div>
          <dt>Recordings and licence</dt>
          <dd>
            <code>{info.dataDir}</code>
          </dd>
        </div>
      </dl>
    </section>
  );
}
