/**
 * What the tool-usage counters count: one run of one action of one tool. The server endpoints count
 * their own runs; what runs in the browser (the HAR and app-log analyses, the GA4 workbench's live
 * validation) is reported with `POST /api/tools/usage`.
 */
import { utcDay } from '../time/utc-day.js';

export const TOOL_ACTIONS = {
  // `validate`: "Validate on server"; `validate-live`: the check as you type, once per settled payload.
  ga4mp: ['validate', 'validate-live', 'send'],
  linker: ['decode', 'encode'],
  har: ['analyse'],
  applog: ['analyse'],
} as const;

export type ToolId = keyof typeof TOOL_ACTIONS;
export type ToolAction<T extends ToolId = ToolId> = (typeof TOOL_ACTIONS)[T][number];

/**
 * How long the GA4 workbench's payload must stay unchanged before its live validation counts as a
 * run (client/features/ga4mp/hooks/useLiveRunReport.ts): letters typed are not runs.
 */
export const LIVE_RUN_SETTLE_MS = 2000;

/** Runs that happen in the browser, reported with `POST /api/tools/usage`: the action a report of each tool counts. */
export const BROWSER_RUNS = { ga4mp: 'validate-live', har: 'analyse', applog: 'analyse' } as const satisfies {
  [T in ToolId]?: ToolAction<T>;
};
export type BrowserToolId = keyof typeof BROWSER_RUNS;
export const BROWSER_TOOLS = Object.keys(BROWSER_RUNS) as BrowserToolId[];

/** The UTC calendar day a run is counted on, `YYYY-MM-DD`. */
export function usageDay(at: Date): string {
  return utcDay(at);
}
