import { toPlainValue } from '../../../../lib/tools/live/datalayer.js';
import type { DataLayerRecord } from '../../../../lib/tools/live/records.js';
import type { RelayMessage } from '../shared/messages.js';

/** A push's time may differ from the worker's clock by a page's fake clock; beyond a day it is not believed. */
const CLOCK_SKEW_MS = 24 * 3600 * 1000;

/**
 * Records of the pushes a page's relay sent. Everything in the message came from the page: fields
 * of the wrong type are replaced, times outside a day of now are replaced by now, and values are
 * copied again through the same bounds as in the page (toPlainValue).
 */
export function dataLayerRecords(
  message: RelayMessage,
  sender: { tabId: number; url: string; documentId?: string },
  nextSeq: () => number,
  now = Date.now(),
): DataLayerRecord[] {
  const { tabId, url, documentId } = sender;
  return message.pushes.flatMap((push) => {
    if (typeof push !== 'object' || push === null) return [];
    const time = typeof push.time === 'number' && Math.abs(push.time - now) < CLOCK_SKEW_MS ? push.time : now;
    return [
      {
        kind: 'datalayer',
        seq: nextSeq(),
        tabId,
        time,
        url: url.slice(0, 2048),
        via: push.via === 'initial' ? 'initial' : 'push',
        gtag: push.gtag === true,
        value: toPlainValue(push.value),
        script: typeof push.script === 'string' ? push.script.slice(0, 2048) : null,
        ...(documentId ? { documentId } : {}),
      } satisfies DataLayerRecord,
    ];
  });
}
