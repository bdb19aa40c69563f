import { reportToolRun } from '../../app/report-tool-run.js';

/**
 * The app-log analyser's one API call: a finished analysis is counted (`POST /api/tools/usage` with
 * the tool's name only, lib/api/tool-usage.ts). The log itself never leaves the browser.
 */
export function reportAppLogAnalysis(): void {
  reportToolRun('applog');
}
