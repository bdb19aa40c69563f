import { useEffect, useEffectEvent, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The text of a search box whose committed value (`q`) lives in the URL: typing commits after a
 * pause (or at once on Enter). The box follows `q` when it changes from outside (Back, "Clear
 * filters"), but not when our own commit arrives: the user may have typed on meanwhile.
 */
export function useSearchText(q: string, commit: (q: string) => void) {
  const [text, setText] = useState(q);
  const [seen, setSeen] = useState({ q, committed: q });
  if (q !== seen.q) {
    setSeen({ q, committed: q });
    if (q !== seen.committed) setText(q);
  }

  const submit = (value: string) => {
    const next = value.trim();
    setSeen((current) => (current.committed === next ? current : { ...current, committed: next }));
    commit(next); // a no-op when q did not change
  };

  const onPause = useEffectEvent((value: string) => submit(value));
  useEffect(() => {
    const timer = window.setTimeout(() => onPause(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  return { text, setText, submit: () => submit(text) };
}
