import { useEffect, useState } from 'react';

export interface Target {
  tabId: number | null;
  /** True when the page follows the active tab of its window (the side panel). */
  following: boolean;
}

/**
 * Which tab's capture to show. The DevTools panel shows its inspected tab; a page opened with
 * `?tab=<id>` (the side panel's "Open in a tab", the tests) shows that tab; the side panel follows
 * the active tab of its window.
 */
export function useTarget(fixed: number | null): Target {
  const param = Number(new URLSearchParams(location.search).get('tab'));
  const pinned = fixed ?? (Number.isInteger(param) && param > 0 ? param : null);
  const [tabId, setTabId] = useState<number | null>(pinned);

  useEffect(() => {
    if (pinned !== null) return;
    let windowId: number | null = null;
    void chrome.tabs.query({ active: true, currentWindow: true }).then(([tab]) => {
      windowId = tab?.windowId ?? null;
      if (tab?.id !== undefined) setTabId(tab.id);
    });
    const activated = (info: chrome.tabs.OnActivatedInfo) => {
      if (windowId === null || info.windowId === windowId) setTabId(info.tabId);
    };
    chrome.tabs.onActivated.addListener(activated);
    return () => chrome.tabs.onActivated.removeListener(activated);
  }, [pinned]);

  return { tabId, following: pinned === null };
}
