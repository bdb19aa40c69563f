import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { type GeneralSettings, SITE_NAME_MAX } from '../../../../lib/api/site-settings.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { siteSettingsSectionQuery } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';

export function GeneralSection({ id }: { id: string }) {
  const query = useQuery(siteSettingsSectionQuery('general'));
  return (
    <SettingsCard id={id} title="Site name" description="Shown in the header of every page and at the end of page titles." query={query}>
      {(saved) => <GeneralForm saved={saved} />}
    </SettingsCard>
  );
}

function GeneralForm({ saved }: { saved: GeneralSettings }) {
  const { draft, setDraft, dirty, discard } = useSectionDraft(saved);
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave('general', 'Site name', form, setDraft);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.submit(draft);
  };
  return (
    <form ref={form} className="form site-settings__form" aria-label="Site name" onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <Field label="Site name" errors={save.errors.siteName} hint={`${draft.siteName.length} / ${SITE_NAME_MAX} characters`}>
        {(control) => (
          <input
            {...control}
            type="text"
            value={draft.siteName}
            maxLength={SITE_NAME_MAX + 20}
            autoComplete="off"
            onChange={(event) => setDraft({ siteName: event.target.value })}
          />
        )}
      </Field>
      <SectionActions dirty={dirty} saving={save.saving} onDiscard={discard} />
    </form>
  );
}
