/**
 * What the tool-usage counters count: one run of one action of one tool. The server endpoints count
 * their own runs; the browser-only analysers (HAR, app log) report each finished analysis.
 */
import { utcDay } from '../time/utc-day.js';

export const TOOL_ACTIONS = {
  ga4mp: ['validate', 'send'],
  linker: ['decode', 'encode'],
  har: ['analyse'],
  applog: ['analyse'],
} as const;

export type ToolId = keyof typeof TOOL_ACTIONS;
export type ToolAction<T extends ToolId = ToolId> = (typeof TOOL_ACTIONS)[T][number];

/** Tools that run entirely in the browser and report their runs with `POST /api/tools/usage`. */
export const BROWSER_TOOLS = ['har', 'applog'] as const satisfies readonly ToolId[];
export type BrowserToolId = (typeof BROWSER_TOOLS)[number];

/** The UTC calendar day a run is counted on, `YYYY-MM-DD`. */
export function usageDay(at: Date): string {
  return utcDay(at);
}
