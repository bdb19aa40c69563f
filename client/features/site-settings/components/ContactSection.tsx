import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import type { ContactSettings } from '../../../../lib/api/site-settings.js';
import { AppLink } from '../../../components/AppLink.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { siteSettingsSectionQuery } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';

/** The addresses the legal documents give (`{{legalEmail}}`, `{{privacyEmail}}`). */
export function ContactSection({ id }: { id: string }) {
  const query = useQuery(siteSettingsSectionQuery('contact'));
  return (
    <SettingsCard
      id={id}
      title="Contact addresses"
      description={
        <>
          Where the <AppLink to="/terms">terms</AppLink> and the <AppLink to="/privacy-policy">privacy policy</AppLink> tell people to write
          (their placeholders <code>{'{{legalEmail}}'}</code> and <code>{'{{privacyEmail}}'}</code>).
        </>
      }
      query={query}
    >
      {(saved) => <ContactForm saved={saved} />}
    </SettingsCard>
  );
}

function ContactForm({ saved }: { saved: ContactSettings }) {
  const { draft, setDraft, dirty, discard } = useSectionDraft(saved);
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave('contact', 'Contact addresses', form, setDraft);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.submit({ legalEmail: draft.legalEmail.trim(), privacyEmail: draft.privacyEmail.trim() });
  };
  return (
    <form ref={form} className="form site-settings__form" aria-label="Contact addresses" onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <div className="site-settings__split">
        <Field label="Legal questions" errors={save.errors.legalEmail} hint="Terms, licences, invoices, security reports">
          {(control) => (
            <input
              {...control}
              type="email"
              value={draft.legalEmail}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setDraft({ ...draft, legalEmail: event.target.value })}
            />
          )}
        </Field>
        <Field label="Privacy questions" errors={save.errors.privacyEmail} hint="Personal data and its rights">
          {(control) => (
            <input
              {...control}
              type="email"
              value={draft.privacyEmail}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setDraft({ ...draft, privacyEmail: event.target.value })}
            />
          )}
        </Field>
      </div>
      <SectionActions dirty={dirty} saving={save.saving} onDiscard={discard} />
    </form>
  );
}
