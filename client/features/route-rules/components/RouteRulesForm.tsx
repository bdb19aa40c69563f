import { type FormEvent, useEffect, useId, useRef } from 'react';
import type { RouteRule } from '../../../../lib/api/route-rules.js';
import { fieldErrors, FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useSaveRouteRules } from '../api.js';
import { type RuleDraft, useRuleDrafts } from '../hooks/useRuleDrafts.js';
import { RouteRuleRow } from './RouteRuleRow.js';
import { RuleErrors } from './RuleErrors.js';
import '../route-rules.css';

/** Every outcome of saving this form is one toast: "saved" replaces "not saved" and the reverse. */
const TOAST_KEY = 'route-rules';

const focusSoon = (find: () => HTMLElement | null | undefined) => requestAnimationFrame(() => find()?.focus());

export function RouteRulesForm({ saved }: { saved: readonly RouteRule[] }) {
  const { drafts, add, change, remove } = useRuleDrafts(saved);
  const save = useSaveRouteRules<RuleDraft>();
  const toast = useToast();
  const formId = useId();
  const form = useRef<HTMLFormElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const idOf = (draft: RuleDraft) => `${formId}-rule-${draft.key}`;

  // The server names a field by the rule's index in the list it was sent; rows added or removed
  // since then keep their messages (or have none) because the list sent is kept with the error.
  const errors = fieldErrors(save.error);
  const errorsOf = (draft: RuleDraft, field: keyof RouteRule) => {
    const index = save.variables?.findIndex((sent) => sent.key === draft.key) ?? -1;
    return index < 0 ? undefined : errors[`rules.${index}.${field}`];
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(drafts, {
      onSuccess: () => toast('Redirect rules saved', 'success', { key: TOAST_KEY }),
      onError: () => toast('Redirect rules not saved', 'error', { key: TOAST_KEY }),
    });
  };

  // Each failed save takes the focus to its first invalid field, once the rows show their messages
  // (after the render that marks them, which a callback cannot wait for).
  useEffect(() => {
    if (save.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [save.error]);

  const onAdd = () => {
    const draft = add();
    focusSoon(() => document.getElementById(`${idOf(draft)}-source`));
  };

  const onRemove = (index: number) => {
    const next = drafts[index + 1] ?? drafts[index - 1];
    remove(drafts[index].key);
    focusSoon(() => (next ? document.getElementById(`${idOf(next)}-remove`) : addButton.current));
  };

  return (
    <form ref={form} onSubmit={onSubmit} className="form route-rules__form" aria-label="Redirect rules" noValidate>
      <FormAlert error={save.error} />
      <RuleErrors id={`${formId}-rules-error`} messages={errors.rules} />
      {drafts.length === 0 ? (
        <p className="muted route-rules__empty">
          No redirect rules. Add one to send an old path (or every path under a prefix such as /docs/*) somewhere else.
        </p>
      ) : (
        <table className="table table--stack route-rules__table">
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Target</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {drafts.map((draft, index) => (
              <RouteRuleRow
                key={draft.key}
                rule={draft}
                position={index + 1}
                idPrefix={idOf(draft)}
                errorsOf={(field) => errorsOf(draft, field)}
                onChange={(patch) => change(draft.key, patch)}
                onRemove={() => onRemove(index)}
              />
            ))}
          </tbody>
        </table>
      )}
      <div className="route-rules__buttons">
        <button ref={addButton} type="button" className="button" onClick={onAdd}>
          Add rule
        </button>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save rules'}
        </button>
      </div>
    </form>
  );
}
