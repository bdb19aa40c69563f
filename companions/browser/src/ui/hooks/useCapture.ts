import { useEffect, useState } from 'react';
import { type CaptureAnalysis, LiveCapture } from '../../../../../lib/tools/live/capture.js';
import { CAPTURE_CHANNEL, type CaptureNotice, readRecords, readTab, type TabRow } from '../../shared/capture-db.js';

export interface CaptureView {
  /** Null until the first read is done. */
  analysis: CaptureAnalysis | null;
  tab: TabRow | null;
  capture: LiveCapture | null;
  error: string | null;
}

/** Records applied per slice of the first read, so a large capture does not hold the page for long. */
const SLICE = 2_000;
/** At most one analysis per this many milliseconds while hits stream in. */
const ANALYSE_EVERY_MS = 250;

const nextFrame = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A tab's capture, live: read from the capture store, then kept up to date from the worker's
 * notices on the capture channel (new records are read after the last one applied; a reset, when
 * records were dropped or cleared, starts again from the store).
 */
export function useCapture(tabId: number | null): CaptureView {
  const [view, setView] = useState<CaptureView>({ analysis: null, tab: null, capture: null, error: null });

  // The component using this is keyed by tab (CaptureApp): a new tab starts from an empty view.
  useEffect(() => {
    if (tabId === null) return;
    let closed = false;
    let capture = new LiveCapture();
    let reading: Promise<void> = Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastAnalysis = 0;
    const stale = () => closed;

    const publish = async () => {
      timer = null;
      lastAnalysis = performance.now();
      const tab = await readTab(tabId);
      if (stale()) return;
      setView({ analysis: capture.analyse(), tab, capture, error: null });
    };
    const schedule = () => {
      if (timer !== null) return;
      timer = setTimeout(() => void publish(), Math.max(0, ANALYSE_EVERY_MS - (performance.now() - lastAnalysis)));
    };
    const readMore = (always = false) => {
      reading = reading
        .catch(() => undefined)
        .then(async () => {
          const records = await readRecords(tabId, capture.lastSeq);
          if (stale()) return;
          if (!records.length) {
            if (always) schedule();
            return;
          }
          for (let from = 0; from < records.length; from += SLICE) {
            capture.apply(records.slice(from, from + SLICE));
            if (from + SLICE < records.length) await nextFrame();
            if (stale()) return;
          }
          schedule();
        });
      reading.catch((error: unknown) => {
        if (!stale()) setView((current) => ({ ...current, error: error instanceof Error ? error.message : String(error) }));
      });
    };
    const restart = () => {
      reading = reading
        .catch(() => undefined)
        .then(() => {
          capture = new LiveCapture();
        });
      readMore(true);
    };

    const channel = new BroadcastChannel(CAPTURE_CHANNEL);
    channel.onmessage = (event: MessageEvent<CaptureNotice>) => {
      if (event.data?.tabId !== tabId) return;
      if (event.data.type === 'reset') restart();
      else readMore();
    };
    restart();
    return () => {
      closed = true;
      channel.close();
      if (timer !== null) clearTimeout(timer);
    };
  }, [tabId]);

  return view;
}
