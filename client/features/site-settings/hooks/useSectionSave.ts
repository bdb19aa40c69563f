import { type RefObject, useEffect } from 'react';
import type { SiteSettingsRequests, SiteSettingsResponses, SiteSettingsSection } from '../../../../lib/api/site-settings.js';
import { ApiError } from '../../../app/api-client.js';
import { fieldErrors } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useSaveSiteSettingsSection } from '../api.js';

/**
 * Saving a section: one toast per outcome ("saved" replaces "not saved"), the field messages of a
 * refusal, and the focus on the first invalid field once the form shows them.
 */
export function useSectionSave<S extends SiteSettingsSection>(
  section: S,
  label: string,
  form: RefObject<HTMLFormElement | null>,
  onSaved: (saved: SiteSettingsResponses[S]) => void,
) {
  const save = useSaveSiteSettingsSection(section);
  const toast = useToast();
  useEffect(() => {
    if (save.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [save.error, form]);
  const submit = (value: SiteSettingsRequests[S]) =>
    save.mutate(value, {
      onSuccess: (saved) => {
        onSaved(saved);
        toast(`${label} saved`, 'success', { key: `site-settings-${section}` });
      },
      onError: (error) => {
        // Field messages show beside their fields; the toast only says where to look.
        const fields = error instanceof ApiError && Object.keys(error.fields).length > 0;
        toast(fields ? `${label} not saved: check the marked fields` : `${label} not saved: ${error.message}`, 'error', {
          key: `site-settings-${section}`,
        });
      },
    });
  return { submit, saving: save.isPending, error: save.error, errors: fieldErrors(save.error), reset: save.reset };
}
