import type { BrowserToolId } from '../../lib/tools/tool-usage.js';
import { api } from './api-client.js';

/**
 * Tells the server a tool ran in the browser (an analysis finished, a live validation settled), for
 * the admin's daily usage counts. Only the tool's name is sent, never the data; a failure is ignored (it must not disturb the tool).
 */
export function reportToolRun(tool: BrowserToolId): void {
  void api('/api/tools/usage', { method: 'POST', body: { tool } }).catch(() => undefined);
}
