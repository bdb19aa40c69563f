import { useEffect, useRef } from 'react';
import { LIVE_RUN_SETTLE_MS } from '../../../../lib/tools/tool-usage.js';
import { reportToolRun } from '../../../app/report-tool-run.js';

/**
 * Counts the live validation in the admin's tool usage (`ga4mp` / `validate-live`), as "Validate on
 * server" is counted on the server. Counting every keystroke would count letters, not runs: a run is
 * a payload the user changed and then left alone for LIVE_RUN_SETTLE_MS (what they read the messages
 * of). Nothing counts before the first edit, nor a payload equal to the last one counted (typing a
 * character and deleting it again), nor a change of the raw JSON's layout alone. Only the tool's name
 * is sent; `payload` never leaves the page.
 */
export function useLiveRunReport(payload: unknown, edited: boolean): void {
  const key = JSON.stringify(payload);
  const counted = useRef<string | null>(null);
  useEffect(() => {
    // Until the first edit the page's own payload is the baseline, not a run.
    if (!edited) {
      counted.current = key;
      return;
    }
    if (key === counted.current) return;
    const timer = setTimeout(() => {
      counted.current = key;
      reportToolRun('ga4mp');
    }, LIVE_RUN_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [key, edited]);
}
