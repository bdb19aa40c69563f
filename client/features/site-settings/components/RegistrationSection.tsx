import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import type { RegistrationSettings } from '../../../../lib/api/site-settings.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { siteSettingsSectionQuery } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';
import { SettingSwitch } from './SettingSwitch.js';

export function RegistrationSection({ id }: { id: string }) {
  const query = useQuery(siteSettingsSectionQuery('registration'));
  return (
    <SettingsCard
      id={id}
      title="Registration"
      description="Whether new people can create an account, with the form or through the sign-in provider."
      query={query}
    >
      {(saved) => <RegistrationForm saved={saved} />}
    </SettingsCard>
  );
}

function RegistrationForm({ saved }: { saved: RegistrationSettings }) {
  const { draft, setDraft, dirty, discard } = useSectionDraft(saved);
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave('registration', 'Registration', form, setDraft);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.submit(draft);
  };
  return (
    <form ref={form} className="form site-settings__form" aria-label="Registration" onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <SettingSwitch
        label="Registration is open"
        checked={draft.open}
        onChange={(open) => setDraft({ open })}
        description={
          draft.open
            ? 'Anybody can create an account.'
            : 'Closed: the register page says so, and new accounts are refused (form and sign-in provider alike). Existing accounts still sign in.'
        }
      />
      <SectionActions dirty={dirty} saving={save.saving} onDiscard={discard} />
    </form>
  );
}
