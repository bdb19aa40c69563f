/**
 * The extension's isolated-world side of the dataLayer hook: it takes the MAIN-world script's
 * reports (DOM events with JSON strings) and sends them to the service worker, one message for what
 * arrives in the same task. The page can dispatch these events itself: everything is treated as the
 * page's data, bounded here and checked again by the worker.
 */
import { DATALAYER_EVENT, MAIN_READY_EVENT, MAX_PUSHES_PER_MESSAGE, type PushReport, RELAY_READY_EVENT } from '../shared/messages.js';

const MAX_DETAIL_CHARS = 1_000_000;
const queue: PushReport[] = [];
let scheduled = false;

function flush() {
  scheduled = false;
  while (queue.length) {
    const pushes = queue.splice(0, MAX_PUSHES_PER_MESSAGE);
    chrome.runtime.sendMessage({ type: 'datalayer', pushes }).catch(() => undefined);
  }
}

document.addEventListener(DATALAYER_EVENT, (event) => {
  const detail = (event as CustomEvent<unknown>).detail;
  if (typeof detail !== 'string' || detail.length > MAX_DETAIL_CHARS) return;
  let reports: unknown;
  try {
    reports = JSON.parse(detail);
  } catch {
    return;
  }
  if (!Array.isArray(reports)) return;
  queue.push(...(reports.slice(0, MAX_PUSHES_PER_MESSAGE * 5) as PushReport[]));
  if (!scheduled) {
    scheduled = true;
    queueMicrotask(flush);
  }
});

const ready = () => document.dispatchEvent(new CustomEvent(RELAY_READY_EVENT));
document.addEventListener(MAIN_READY_EVENT, ready);
ready();
