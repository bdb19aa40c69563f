import { reportToolRun } from '../../app/report-tool-run.js';

/**
 * The HAR analyser's one API call: a finished analysis is counted (`POST /api/tools/usage` with the
 * tool's name only, lib/api/tool-usage.ts). The file itself never leaves the browser.
 */
export function reportHarAnalysis(): void {
  reportToolRun('har');
}
