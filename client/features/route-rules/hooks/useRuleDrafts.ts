import { useState } from 'react';
import type { RouteRule } from '../../../../lib/api/route-rules.js';

/** A rule being edited. `key` tells rows apart while they are added, removed and saved. */
export interface RuleDraft extends RouteRule {
  key: number;
}

let nextKey = 1;
const draftOf = (rule: RouteRule): RuleDraft => ({ ...rule, key: nextKey++ });

/** The editor's copy of the rules: starts from the saved list and is what "Save rules" sends. */
export function useRuleDrafts(saved: readonly RouteRule[]) {
  const [drafts, setDrafts] = useState<RuleDraft[]>(() => saved.map(draftOf));
  return {
    drafts,
    add: (): RuleDraft => {
      const draft = draftOf({ source: '', target: '', status: 302 });
      setDrafts((list) => [...list, draft]);
      return draft;
    },
    change: (key: number, patch: Partial<RouteRule>) =>
      setDrafts((list) => list.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft))),
    remove: (key: number) => setDrafts((list) => list.filter((draft) => draft.key !== key)),
  };
}
