import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useDeferredValue, useRef } from 'react';
import { PRIVACY_MARKDOWN_MAX, type PrivacySettingsResponse } from '../../../../lib/api/site-settings.js';
import { formatDate } from '../../../../lib/format/date.js';
import { renderMarkdown } from '../../../../lib/markdown/markdown.js';
import { AppLink } from '../../../components/AppLink.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { siteSettingsSectionQuery } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';

export function PrivacySection({ id }: { id: string }) {
  const query = useQuery(siteSettingsSectionQuery('privacy'));
  return (
    <SettingsCard
      id={id}
      title="Privacy policy"
      description={
        <>
          The text of <AppLink to="/privacy-policy">/privacy-policy</AppLink>, in Markdown. Raw HTML is shown as text, never run. Saving
          sets its “last updated” date.
        </>
      }
      query={query}
    >
      {(saved) => <PrivacyForm saved={saved} />}
    </SettingsCard>
  );
}

function PrivacyForm({ saved }: { saved: PrivacySettingsResponse }) {
  const { draft, setDraft, dirty, discard } = useSectionDraft(saved);
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave('privacy', 'Privacy policy', form, setDraft);
  // Typing stays fast in a long policy: the preview follows when the browser has time.
  const previewSource = useDeferredValue(draft.markdown);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.submit({ markdown: draft.markdown });
  };
  return (
    <form ref={form} className="form site-settings__form" aria-label="Privacy policy" onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <p className="site-settings__meta">
        {saved.updatedAt ? (
          <>
            Last updated <time dateTime={saved.updatedAt}>{formatDate(saved.updatedAt)}</time>
          </>
        ) : (
          'The default policy of a fresh install: it has not been saved here yet.'
        )}
      </p>
      <div className="site-settings__split">
        <Field
          label="Policy (Markdown)"
          errors={save.errors.markdown}
          hint={`${draft.markdown.length.toLocaleString('en-GB')} / ${PRIVACY_MARKDOWN_MAX.toLocaleString('en-GB')} characters`}
        >
          {(control) => (
            <textarea
              {...control}
              className="site-settings__markdown"
              rows={18}
              value={draft.markdown}
              spellCheck
              onChange={(event) => setDraft({ ...draft, markdown: event.target.value })}
            />
          )}
        </Field>
        <div className="site-settings__preview site-settings__preview--policy" role="group" aria-label="Preview of the policy">
          <p className="site-settings__preview-label">Preview</p>
          <div className="prose site-settings__policy-preview" dangerouslySetInnerHTML={{ __html: renderMarkdown(previewSource) }} />
        </div>
      </div>
      <SectionActions dirty={dirty} saving={save.saving} onDiscard={discard} />
    </form>
  );
}
