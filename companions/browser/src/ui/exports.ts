import type { CaptureAnalysis, LiveCapture } from '../../../../lib/tools/live/capture.js';
import { captureCsv } from '../../../../lib/tools/live/csv-export.js';
import { buildHar } from '../../../../lib/tools/live/har-export.js';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `hitscope-www.shop.example-2026-11-28T10-00-00` */
export function exportName(url: string | null, now = new Date()): string {
  let host = 'capture';
  try {
    if (url) host = new URL(url).hostname || host;
  } catch {
    // keep "capture"
  }
  return `hitscope-${host}-${now.toISOString().slice(0, 19).replace(/:/g, '-')}`;
}

/** The capture as HAR 1.2: open it in Hitscope's HAR analyser (or any HAR viewer) and the same hits come out. */
export function downloadHar(capture: LiveCapture, name: string): void {
  const har = buildHar({
    ...capture.exportInput(),
    creator: { name: COMPANION_PRODUCTS.browsers.name, version: chrome.runtime.getManifest().version },
  });
  save(new Blob([JSON.stringify(har, null, 1)], { type: 'application/json' }), `${name}.har`);
}

export function downloadCsv(analysis: CaptureAnalysis, name: string): void {
  // A byte order mark, so spreadsheet programs read the UTF-8 as UTF-8.
  save(new Blob(['\ufeff', captureCsv(analysis)], { type: 'text/csv;charset=utf-8' }), `${name}.csv`);
}
