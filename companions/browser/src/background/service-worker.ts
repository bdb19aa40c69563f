/**
 * The extension's service worker: it captures, the panels show. Listeners are registered at the top
 * level (Chrome wakes a stopped worker for an event only if its listener is registered on start), and
 * every record goes to the capture store at once (capture-writer.ts): the worker keeps nothing a
 * restart could lose except which requests are waiting for their answer.
 *
 * Capture works whether or not a panel is open: the complaint users of every DevTools-panel
 * debugger share ("open the panel, then reload") does not apply.
 */
import { captureEntry, decodeEntry } from '../../../../lib/tools/har/analyse.js';
import { decodableEntry } from '../../../../lib/tools/live/har-export.js';
import { type RequestRecord, requestRecord, type WebRequestDetails } from '../../../../lib/tools/live/records.js';
import { isPanelMessage, isRelayMessage, type PanelReply } from '../shared/messages.js';
import { CAPTURE_LIMITS, CaptureWriter } from './capture-writer.js';
import { dataLayerRecords } from './datalayer-records.js';

/**
 * The bounds in force and what capturing cost, on the worker's global: `npm run bench` reads the
 * costs, and the tests lower the bounds to see old hits dropped without sending twenty thousand.
 */
const limits = { ...CAPTURE_LIMITS };
const writer = new CaptureWriter(limits);

/**
 * Whether this worker is the first of the browser session: `storage.session` is emptied when the
 * browser quits, and kept across the worker's stops and restarts within a session. Decided as the
 * writer's first task, before anything this worker captures is written; `runtime.onStartup` was
 * used before and can arrive after a restored tab's first hits were written, which it then wiped.
 */
const SESSION_MARKER = 'captureSession';
void writer.forgetEarlierSessions({
  begun: async () => Boolean((await chrome.storage.session.get(SESSION_MARKER))[SESSION_MARKER]),
  begin: () => chrome.storage.session.set({ [SESSION_MARKER]: Date.now() }),
});
const ALL_URLS: chrome.webRequest.RequestFilter = { urls: ['<all_urls>'] };

/**
 * Requests captured and not answered yet: webRequest id → the capture's id for the current hop
 * (a redirect is a new HAR entry for the same webRequest id: `id`, `id.1`, `id.2`…).
 */
const pending = new Map<string, { tabId: number; captureId: string; hops: number }>();

const stats = { requests: 0, hits: 0, ms: 0 };
(globalThis as { hitscope?: unknown }).hitscope = { stats, limits, store: writer.stats };

function onBeforeRequest(details: chrome.webRequest.OnBeforeRequestDetails): undefined {
  // Requests of no tab (the browser's own, a site's service worker) have no page to show them in.
  if (details.tabId < 0) return;
  const started = performance.now();
  // One regular expression on the URL first: ordinary requests cost nothing more.
  if (!captureEntry({ request: { url: details.url } }, 0)) return;
  const previous = pending.get(details.requestId);
  const hops = previous ? previous.hops + 1 : 0;
  const record: RequestRecord = requestRecord(details as unknown as WebRequestDetails, writer.nextSeq());
  if (hops) record.requestId = `${details.requestId}.${hops}`;
  record.hits = decodeEntry(decodableEntry(record, null), 0).length;
  if (record.hits > 0) {
    pending.set(details.requestId, { tabId: details.tabId, captureId: record.requestId, hops });
    writer.add(record);
    stats.hits += record.hits;
  } else if (previous) {
    pending.set(details.requestId, { ...previous, hops });
  }
  stats.requests++;
  stats.ms += performance.now() - started;
  return undefined;
}

function answered(requestId: string, timeStamp: number, status: number, error: string | null, final: boolean): void {
  const entry = pending.get(requestId);
  if (!entry) return;
  if (final) pending.delete(requestId);
  writer.add({ kind: 'status', seq: writer.nextSeq(), tabId: entry.tabId, time: timeStamp, requestId: entry.captureId, status, error });
}

chrome.webRequest.onBeforeRequest.addListener(onBeforeRequest, ALL_URLS, ['requestBody']);
chrome.webRequest.onBeforeRedirect.addListener(
  (details) => answered(details.requestId, details.timeStamp, details.statusCode, null, false),
  ALL_URLS,
);
chrome.webRequest.onCompleted.addListener(
  (details) => answered(details.requestId, details.timeStamp, details.statusCode, null, true),
  ALL_URLS,
);
chrome.webRequest.onErrorOccurred.addListener(
  (details) => answered(details.requestId, details.timeStamp, 0, details.error, true),
  ALL_URLS,
);

/** Pages a person debugs: a new tab's about:blank or the browser's own pages are not page loads. */
const isPage = (url: string) => /^(https?|file):/.test(url);

chrome.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId !== 0 || details.tabId < 0 || !isPage(details.url)) return;
  writer.add({
    kind: 'navigation',
    seq: writer.nextSeq(),
    tabId: details.tabId,
    time: details.timeStamp,
    url: details.url,
    transition: details.transitionType,
    ...(details.documentId ? { documentId: details.documentId } : {}),
  });
});
chrome.webNavigation.onHistoryStateUpdated.addListener((details) => {
  if (details.frameId !== 0 || details.tabId < 0 || !isPage(details.url)) return;
  writer.add({
    kind: 'navigation',
    seq: writer.nextSeq(),
    tabId: details.tabId,
    time: details.timeStamp,
    url: details.url,
    transition: 'history',
  });
});

chrome.runtime.onMessage.addListener((message: unknown, sender, reply: (answer: PanelReply) => void) => {
  // dataLayer pushes from the relay of a page: what the page sends is data, checked and bounded again here.
  if (sender.tab?.id !== undefined && isRelayMessage(message)) {
    const from = { tabId: sender.tab.id, url: sender.url ?? sender.tab.url ?? '', documentId: sender.documentId };
    for (const record of dataLayerRecords(message, from, () => writer.nextSeq())) writer.add(record);
    return false;
  }
  // The panels' requests come from the extension's own pages, never from a tab's content script.
  if (sender.id !== chrome.runtime.id || (sender.tab?.id !== undefined && !sender.url?.startsWith(chrome.runtime.getURL('')))) return false;
  if (!isPanelMessage(message)) return false;
  const work = message.type === 'clear' ? writer.clear(message.tabId) : writer.settled();
  work.then(
    () => reply({ ok: true }),
    (error: unknown) => reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  return true;
});

// The toolbar button opens the side panel (Chrome, Edge); Firefox has a sidebar instead.
const firefoxSidebar = (globalThis as { browser?: { sidebarAction?: { toggle(): Promise<void> } } }).browser?.sidebarAction;
if (chrome.sidePanel?.setPanelBehavior) {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);
} else if (firefoxSidebar) {
  chrome.action.onClicked.addListener(() => void firefoxSidebar.toggle());
}
