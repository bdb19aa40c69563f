import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import {
  ANNOUNCEMENT_LINK_LABEL_MAX,
  ANNOUNCEMENT_TEXT_MAX,
  type AnnouncementSettings,
  type AnnouncementTone,
  URL_MAX,
} from '../../../../lib/api/site-settings.js';
import { renderInlineMarkdown } from '../../../../lib/markdown/markdown.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { SegmentedControl } from '../../../components/SegmentedControl.js';
import { siteSettingsSectionQuery } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';
import { SettingSwitch } from './SettingSwitch.js';

const TONES = [
  { value: 'info', label: 'Information' },
  { value: 'warning', label: 'Warning' },
] as const;

export function AnnouncementSection({ id }: { id: string }) {
  const query = useQuery(siteSettingsSectionQuery('announcement'));
  return (
    <SettingsCard
      id={id}
      title="Announcement banner"
      description="A line at the top of every page (public, dashboard and admin). Each person can close it; a changed text shows again."
      query={query}
    >
      {(saved) => <AnnouncementForm saved={saved} />}
    </SettingsCard>
  );
}

function AnnouncementForm({ saved }: { saved: AnnouncementSettings }) {
  const { draft, setDraft, dirty, discard } = useSectionDraft(saved);
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave('announcement', 'Announcement', form, setDraft);
  const set = (patch: Partial<AnnouncementSettings>) => setDraft({ ...draft, ...patch });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.submit(draft);
  };
  const preview = draft.text.trim() ? renderInlineMarkdown(draft.text) : '';
  return (
    <form ref={form} className="form site-settings__form" aria-label="Announcement banner" onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <SettingSwitch
        label="Show the announcement"
        checked={draft.enabled}
        onChange={(enabled) => set({ enabled })}
        description={draft.enabled ? 'Shown at the top of every page until each person closes it.' : 'Hidden everywhere.'}
      />
      <Field
        label="Text"
        errors={save.errors.text}
        hint={
          <>
            <strong>**bold**</strong>, <em>*italic*</em>, <code>`code`</code> and <code>[links](https://…)</code>. {draft.text.length} /{' '}
            {ANNOUNCEMENT_TEXT_MAX}
          </>
        }
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            value={draft.text}
            maxLength={ANNOUNCEMENT_TEXT_MAX}
            onChange={(event) => set({ text: event.target.value })}
          />
        )}
      </Field>
      <SegmentedControl<AnnouncementTone>
        label="Tone"
        showLabel
        options={TONES}
        value={draft.tone}
        onChange={(tone) => set({ tone })}
        name="announcement-tone"
      />
      <div className="site-settings__row">
        <Field label="Link label (optional)" errors={save.errors.linkLabel}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={draft.linkLabel}
              maxLength={ANNOUNCEMENT_LINK_LABEL_MAX}
              placeholder="Read more"
              onChange={(event) => set({ linkLabel: event.target.value })}
            />
          )}
        </Field>
        <Field label="Link URL (optional)" errors={save.errors.linkUrl} hint="An https:// address or a path on this site such as /pricing.">
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="url"
              value={draft.linkUrl}
              maxLength={URL_MAX}
              placeholder="/sponsor"
              onChange={(event) => set({ linkUrl: event.target.value })}
            />
          )}
        </Field>
      </div>
      <div className="site-settings__preview" aria-label="Preview of the banner" role="group">
        <p className="site-settings__preview-label">Preview</p>
        {preview ? (
          <div className={`announcement announcement--${draft.tone} site-settings__banner-preview`}>
            <div className="announcement__inner">
              <span className="announcement__icon" aria-hidden="true">
                {draft.tone === 'warning' ? '!' : 'i'}
              </span>
              <p className="announcement__text">
                <span dangerouslySetInnerHTML={{ __html: preview }} />
                {draft.linkLabel && draft.linkUrl ? (
                  <>
                    {' '}
                    <span className="announcement__link">{draft.linkLabel}</span>
                  </>
                ) : null}
              </p>
            </div>
          </div>
        ) : (
          <p className="muted">Write a text to see the banner.</p>
        )}
      </div>
      <SectionActions dirty={dirty} saving={save.saving} onDiscard={discard} />
    </form>
  );
}
