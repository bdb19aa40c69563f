/**
 * Runs in the page's own JavaScript world at document_start, before any of the page's scripts, and
 * reports every `dataLayer.push` (a `gtag()` call pushes its `arguments`) with its time and the
 * script that made it. The copy of each pushed value is made at once (pages change their objects
 * afterwards) and bounded (lib/tools/live/datalayer.ts). Reports go to the relay (relay.ts, the
 * extension's isolated world) as DOM events carrying JSON strings: objects do not cross worlds.
 *
 * Google Tag Manager replaces `dataLayer.push` with its own function that calls the push it found
 * there. So `push` is an accessor: reading it gives the newest wrapper, assigning a function wraps
 * that function. Only the wrapper currently installed reports a call; an older wrapper reports only
 * when called on its own (not from within a newer one), so a push is reported once whatever the
 * chain, and a push GTM makes while handling another (gtm.dom…) is reported too.
 *
 * Nothing here may break a page: every report is wrapped in try/catch and the page's function is
 * always called with the page's arguments and its result returned.
 */
import { isArguments, pushingScript, toPlainValue } from '../../../../lib/tools/live/datalayer.js';
import { DATALAYER_EVENT, MAIN_READY_EVENT, type PushReport, RELAY_READY_EVENT } from '../shared/messages.js';

const DATA_LAYER = 'dataLayer';
const HOOKED = Symbol.for('hitscope.datalayer-hook');

(() => {
  const page = window as unknown as Record<PropertyKey, unknown>;
  if (page[HOOKED]) return;
  Object.defineProperty(window, HOOKED, { value: true });

  let relayReady = false;
  let held: PushReport[] = [];
  const send = (reports: PushReport[]) => document.dispatchEvent(new CustomEvent(DATALAYER_EVENT, { detail: JSON.stringify(reports) }));
  document.addEventListener(RELAY_READY_EVENT, () => {
    if (relayReady) return;
    relayReady = true;
    if (held.length) send(held);
    held = [];
  });
  document.dispatchEvent(new CustomEvent(MAIN_READY_EVENT));

  const report = (items: ArrayLike<unknown>, via: PushReport['via']) => {
    try {
      const time = Date.now();
      const script = pushingScript(new Error().stack);
      const reports: PushReport[] = Array.from(items, (item) => ({
        time,
        via,
        gtag: isArguments(item),
        value: toPlainValue(item),
        script,
      }));
      if (!reports.length) return;
      if (relayReady) send(reports);
      else held.push(...reports);
    } catch {
      // A report must never break the page's push.
    }
  };

  const hooked = new WeakSet<object>();
  const hookArray = (value: unknown) => {
    if (!Array.isArray(value) || hooked.has(value)) return;
    hooked.add(value);
    report(value, 'initial');
    let active = 0;
    const wrap = (push: (...items: unknown[]) => unknown) => {
      const wrapper = function (this: unknown, ...items: unknown[]) {
        if (active === 0 || wrapper === latest) report(items, 'push');
        active++;
        try {
          return push.apply(this, items);
        } finally {
          active--;
        }
      };
      return wrapper;
    };
    const own = Object.getOwnPropertyDescriptor(value, 'push')?.value;
    let latest: unknown = wrap(typeof own === 'function' ? own : Array.prototype.push);
    Object.defineProperty(value, 'push', {
      configurable: true,
      enumerable: false,
      get: () => latest,
      set: (next: unknown) => {
        latest = typeof next === 'function' ? wrap(next as (...items: unknown[]) => unknown) : next;
      },
    });
  };

  let current: unknown = page[DATA_LAYER];
  hookArray(current);
  try {
    Object.defineProperty(window, DATA_LAYER, {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (next: unknown) => {
        current = next;
        hookArray(next);
      },
    });
  } catch {
    // The page made dataLayer unconfigurable before us (it cannot at document_start, but a frame may).
  }
})();
