import type { BrowserToolId } from '../../lib/tools/tool-usage.js';
import { api } from './api-client.js';

/**
 * Tells the server a browser-only analysis finished, for the admin's daily usage counts. Only the
 * tool's name is sent, never the analysed data; a failure is ignored (it must not disturb the tool).
 */
export function reportToolRun(tool: BrowserToolId): void {
  void api('/api/tools/usage', { method: 'POST', body: { tool } }).catch(() => undefined);
}
