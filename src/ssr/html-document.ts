import { escapeHtml } from '../../lib/seo/head.js';
import type { ColorMode } from '../../lib/client-constants.js';

export interface DocumentParts {
  head: string;
  html: string;
  scripts: string;
  preloadLinks: string;
  nonce: string;
  colorMode: ColorMode;
  theme: 'light' | 'dark' | null;
  /** Marks a page rendered outside the router: the client does not hydrate it. */
  staticError?: boolean;
}

/** Every `<script>` of the shell gets the request's CSP nonce (Vite's own dev scripts included). */
function addNonce(template: string, nonce: string): string {
  return template.replace(/<script(?![^>]*\bnonce=)/g, `<script nonce="${escapeHtml(nonce)}"`);
}

export function assembleDocument(template: string, parts: DocumentParts): string {
  const attributes = [
    `data-color-mode="${parts.colorMode}"`,
    parts.theme ? `data-theme="${parts.theme}"` : '',
    parts.staticError ? 'data-static-error' : '',
  ]
    .filter(Boolean)
    .join(' ');
  // Function replacers: `$` sequences in rendered content must not be read as replacement patterns.
  return (
    addNonce(template, parts.nonce)
      .replace('data-hs-attrs', () => attributes)
      .replace('<!--app-head-->', () => parts.head)
      // Last in <head>: after the entry's stylesheet, so a page's own stylesheet can refine the
      // app-wide rules at equal specificity (the order client-side navigation produces too).
      .replace('</head>', () => `  ${parts.preloadLinks}\n  </head>`)
      .replace('<!--app-html-->', () => parts.html)
      .replace('<!--app-scripts-->', () => parts.scripts)
  );
}
