import { useEffect, useState } from 'react';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The editable copy of a saved section. It starts from what was loaded and keeps the admin's edits
 * (a background refetch never overwrites them); after a save it takes the value as stored.
 * While there are unsaved edits, leaving the page asks first.
 */
export function useSectionDraft<T>(saved: T) {
  const [draft, setDraft] = useState<T>(saved);
  const dirty = !same(draft, saved);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return { draft, setDraft, dirty, discard: () => setDraft(saved) };
}
