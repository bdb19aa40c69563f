import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useDeferredValue, useId, useRef } from 'react';
import {
  PRIVACY_MARKDOWN_MAX,
  type PrivacySettingsResponse,
  TERMS_MARKDOWN_MAX,
  TERMS_PATH,
  WITHDRAWAL_SECTION_ID,
} from '../../../../lib/api/site-settings.js';
import { formatDate } from '../../../../lib/format/date.js';
import { fillPlaceholders, LEGAL_PLACEHOLDERS, type LegalPlaceholder } from '../../../../lib/legal/placeholders.js';
import { renderMarkdown } from '../../../../lib/markdown/markdown.js';
import { withSectionIds } from '../../../../lib/markdown/sections.js';
import { AppLink } from '../../../components/AppLink.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { legalValuesQuery, siteSettingsSectionQuery } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';

type LegalSection = 'privacy' | 'terms';

const DOCUMENTS: Record<LegalSection, { title: string; path: string; label: string; max: number; what: string }> = {
  privacy: { title: 'Privacy policy', path: '/privacy-policy', label: 'Policy (Markdown)', max: PRIVACY_MARKDOWN_MAX, what: 'policy' },
  terms: { title: 'Terms of service', path: TERMS_PATH, label: 'Terms (Markdown)', max: TERMS_MARKDOWN_MAX, what: 'terms' },
};

/**
 * The privacy policy or the terms of service in /admin/settings: Markdown with the placeholders of
 * lib/legal/placeholders.ts, a preview with them filled in as the page will show them, and the
 * last-updated date each save sets. Saves are audited and seen by every instance (the settings).
 */
export function LegalDocumentSection({ id, section }: { id: string; section: LegalSection }) {
  const query = useQuery(siteSettingsSectionQuery(section));
  const { title, path, what } = DOCUMENTS[section];
  return (
    <SettingsCard
      id={id}
      title={title}
      description={
        <>
          The text of <AppLink to={path}>{path}</AppLink>, in Markdown. Raw HTML is shown as text, never run. Saving sets its “last updated”
          date.
          {section === 'terms' ? (
            <>
              {' '}
              Keep the section headed <code>## … {`{#${WITHDRAWAL_SECTION_ID}}`}</code>: Stripe Checkout’s consent text links to{' '}
              <AppLink to={`${path}#${WITHDRAWAL_SECTION_ID}`}>
                {path}#{WITHDRAWAL_SECTION_ID}
              </AppLink>
              .
            </>
          ) : null}{' '}
          Write plans, prices and addresses as placeholders, so the {what} follow the catalogue and the contact addresses.
        </>
      }
      query={query}
    >
      {(saved) => <LegalDocumentForm section={section} saved={saved} />}
    </SettingsCard>
  );
}

function LegalDocumentForm({ section, saved }: { section: LegalSection; saved: PrivacySettingsResponse }) {
  const { title, label, max, what } = DOCUMENTS[section];
  const { draft, setDraft, dirty, discard } = useSectionDraft(saved);
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave(section, title, form, setDraft);
  const values = useQuery(legalValuesQuery());
  // Typing stays fast in a long document: the preview follows when the browser has time.
  const previewSource = useDeferredValue(draft.markdown);
  const preview = values.data ? fillPlaceholders(previewSource, values.data) : previewSource;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.submit({ markdown: draft.markdown });
  };
  return (
    <form ref={form} className="form site-settings__form" aria-label={title} onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <p className="site-settings__meta">
        {saved.updatedAt ? (
          <>
            Last updated <time dateTime={saved.updatedAt}>{formatDate(saved.updatedAt)}</time>
          </>
        ) : (
          `The default ${what} of a fresh install: not saved here yet.`
        )}
      </p>
      <div className="site-settings__split">
        <Field
          label={label}
          errors={save.errors.markdown}
          hint={`${draft.markdown.length.toLocaleString('en-GB')} / ${max.toLocaleString('en-GB')} characters`}
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
        <div className="site-settings__preview site-settings__preview--policy" role="group" aria-label={`Preview of the ${what}`}>
          <p className="site-settings__preview-label">
            Preview{values.isError ? ' (placeholders not filled in: their values could not be loaded)' : ''}
          </p>
          <div
            className="prose site-settings__policy-preview"
            dangerouslySetInnerHTML={{ __html: withSectionIds(renderMarkdown(preview)).html }}
          />
        </div>
      </div>
      <Placeholders />
      <SectionActions dirty={dirty} saving={save.saving} onDiscard={discard} />
    </form>
  );
}

/** The placeholders a document may use, with what each stands for. */
function Placeholders() {
  const id = useId();
  const names = Object.keys(LEGAL_PLACEHOLDERS) as LegalPlaceholder[];
  const rows: ReactNode[] = names.map((name) => (
    <div key={name} className="site-settings__placeholder">
      <dt>
        <code>{`{{${name}}}`}</code>
      </dt>
      <dd>{LEGAL_PLACEHOLDERS[name]}</dd>
    </div>
  ));
  return (
    <details className="site-settings__placeholders">
      <summary id={id}>Placeholders</summary>
      <dl aria-labelledby={id}>{rows}</dl>
    </details>
  );
}
