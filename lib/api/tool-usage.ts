import type { BrowserToolId, ToolAction, ToolId } from '../tools/tool-usage.js';

/**
 * Requests and answers of the tool-usage counters: runs in the browser are reported,
 * and admins read the daily counts in /admin/analytics.
 */

/** `POST /api/tools/usage` (204): a run that happened in the browser (see `BROWSER_RUNS`); only the tool's name. */
export interface ToolRunReport {
  tool: BrowserToolId;
}

/** `GET /api/admin/tool-usage?from=&to=`: UTC days as `YYYY-MM-DD`, inclusive; the last 30 days by default. */
export interface ToolUsageQuery {
  from?: string;
  to?: string;
}

/** Runs of one action of one tool on one UTC day. */
export interface ToolUsageRow {
  day: string;
  tool: ToolId;
  action: ToolAction;
  runs: number;
}

/** The range actually answered (the defaults filled in) and its rows, oldest day first. */
export interface ToolUsageResponse {
  from: string;
  to: string;
  rows: ToolUsageRow[];
}
