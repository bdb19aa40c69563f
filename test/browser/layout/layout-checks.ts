import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/**
 * The layout checks of the layout suite, run inside the page. Each returns human-readable
 * problems (empty when the page is fine); the suite collects them for every route, role, viewport
 * and colour mode and fails with the whole list.
 */

/** The page scrolls sideways: something is wider than the viewport. Names the widest culprits. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const width = document.documentElement.scrollWidth;
    if (width <= viewport) return [];
    // Elements sticking out to the right, outermost first, skipping those inside a scroll container.
    const inScroller = (element: Element): boolean => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const { overflowX } = getComputedStyle(parent);
        if (overflowX === 'auto' || overflowX === 'scroll' || overflowX === 'hidden' || overflowX === 'clip') return true;
      }
      return false;
    };
    const culprits: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.right <= viewport + 1 || rect.width === 0 || inScroller(element)) continue;
      if (element.parentElement && element.parentElement.getBoundingClientRect().right > viewport + 1 && !inScroller(element.parentElement))
        continue;
      culprits.push(`${describe(element)} ends at ${Math.round(rect.right)} px`);
      if (culprits.length === 3) break;
    }
    return [`scrolls sideways: ${width} px wide in a ${viewport} px viewport (${culprits.join('; ') || 'no single culprit'})`];

    function describe(element: Element): string {
      const classes = [...element.classList]
        .slice(0, 2)
        .map((name) => `.${name}`)
        .join('');
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${element.tagName.toLowerCase()}${classes}>${text ? ` "${text}"` : ''}`;
    }
  });
}

/**
 * A button, input, select or textarea still in the browser's own look: the user-agent font size
 * (13.33 px), inset/outset borders, or a grey ButtonFace background. Checkboxes and radios keep
 * their native shape but must take the accent colour.
 */
export async function defaultLookingControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>('button, input:not([type="hidden"]), select, textarea');
    for (const control of controls) {
      if (!control.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const rect = control.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue; // visually hidden
      const style = getComputedStyle(control);
      const name = `${control.tagName.toLowerCase()}${control.getAttribute('type') ? `[type=${control.getAttribute('type')}]` : ''} "${label(control)}"`;
      const type = (control.getAttribute('type') ?? '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') {
        if (style.accentColor === 'auto') problems.push(`${name} has the browser's default colour (no accent-color)`);
        continue;
      }
      const reasons: string[] = [];
      if (style.fontSize === '13.3333px') reasons.push('user-agent font size 13.33 px');
      if (/inset|outset/.test(style.borderTopStyle)) reasons.push(`${style.borderTopStyle} border`);
      if (control.tagName === 'BUTTON' && /^rgb\((239, 239, 239|107, 107, 107)\)$/.test(style.backgroundColor))
        reasons.push('ButtonFace background');
      if (type === 'file') {
        const picker = getComputedStyle(control, '::file-selector-button');
        if (
          picker.fontSize === '13.3333px' ||
          /inset|outset/.test(picker.borderTopStyle) ||
          /^rgb\((239, 239, 239|107, 107, 107)\)$/.test(picker.backgroundColor)
        ) {
          reasons.push("the browser's own file button");
        }
      }
      if (reasons.length) problems.push(`${name} looks like the browser's default (${reasons.join(', ')})`);
    }
    return problems;

    function label(element: HTMLElement): string {
      const text =
        element.getAttribute('aria-label') ??
        (element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null) ??
        element.textContent ??
        element.getAttribute('name') ??
        '';
      return text.trim().replace(/\s+/g, ' ').slice(0, 40);
    }
  });
}

/**
 * Text drawn over other text, and text that escapes the control it belongs to (a label wrapping
 * out of a fixed-height pill). Works on the visible part of the line boxes of every text node,
 * with the page scrolled to the top: a fixed layer (dialog, toast, drawer) is meant to cover the
 * page, so text is only compared with text of the same layer, and the part of a line that an
 * `overflow` ancestor clips away (an ellipsis, a scroll box) does not count.
 */
export async function overlappingText(page: Page): Promise<string[]> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate(() => {
    interface Box {
      left: number;
      top: number;
      right: number;
      bottom: number;
      text: string;
      element: Element;
      layer: Element | null;
    }
    interface Rect {
      left: number;
      top: number;
      right: number;
      bottom: number;
    }
    const layers = new Map<Element, Element | null>();
    const layerOf = (element: Element): Element | null => {
      if (layers.has(element)) return layers.get(element)!;
      const layer =
        getComputedStyle(element).position === 'fixed' ? element : element.parentElement ? layerOf(element.parentElement) : null;
      layers.set(element, layer);
      return layer;
    };
    const clips = new Map<Element, Rect | null>();
    const infinite: Rect = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    /** The area an element's content may show in: its overflow-clipping ancestors' boxes, intersected. */
    const clipOf = (element: Element | null): Rect => {
      if (!element || element === document.documentElement) return infinite;
      if (clips.has(element)) return clips.get(element) ?? infinite;
      const outer = clipOf(element.parentElement);
      const style = getComputedStyle(element);
      let own = outer;
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const rect = element.getBoundingClientRect();
        own = {
          left: style.overflowX !== 'visible' ? Math.max(outer.left, rect.left) : outer.left,
          right: style.overflowX !== 'visible' ? Math.min(outer.right, rect.right) : outer.right,
          top: style.overflowY !== 'visible' ? Math.max(outer.top, rect.top) : outer.top,
          bottom: style.overflowY !== 'visible' ? Math.min(outer.bottom, rect.bottom) : outer.bottom,
        };
      }
      clips.set(element, own);
      return own;
    };

    const boxes: Box[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!text.trim()) continue;
      const element = node.parentElement;
      if (!element || !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      if (element.closest('.visually-hidden, svg, script, style, noscript, textarea, select, option')) continue;
      const clip = clipOf(element);
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        const box = {
          left: Math.max(rect.left, clip.left),
          right: Math.min(rect.right, clip.right),
          top: Math.max(rect.top, clip.top),
          bottom: Math.min(rect.bottom, clip.bottom),
        };
        if (box.right - box.left < 2 || box.bottom - box.top < 2) continue;
        boxes.push({ ...box, text: text.trim().replace(/\s+/g, ' ').slice(0, 30), element, layer: layerOf(element) });
      }
    }

    const problems = new Set<string>();
    // Sweep by top edge: only boxes whose vertical ranges meet can overlap.
    boxes.sort((a, b) => a.top - b.top);
    for (let i = 0; i < boxes.length; i += 1) {
      const a = boxes[i];
      for (let j = i + 1; j < boxes.length && boxes[j].top < a.bottom; j += 1) {
        const b = boxes[j];
        if (a.layer !== b.layer) continue;
        if (a.element === b.element && a.text === b.text) continue; // two lines of one text node
        const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        // Line boxes of neighbouring lines may touch; real overlap covers a good part of a glyph.
        if (width > 3 && height > 0.4 * Math.min(a.bottom - a.top, b.bottom - b.top)) {
          problems.add(`text "${a.text}" overlaps "${b.text}"`);
        }
      }
    }

    // Text must stay inside the control, tab or badge it labels.
    const containers = document.querySelectorAll<HTMLElement>('button, .button, .badge, [role="tab"], .segmented__option');
    for (const container of containers) {
      if (!container.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const outer = container.getBoundingClientRect();
      if (outer.width <= 1 || outer.height <= 1) continue;
      for (const box of boxes) {
        if (!container.contains(box.element)) continue;
        if (box.left < outer.left - 2 || box.right > outer.right + 2 || box.top < outer.top - 2 || box.bottom > outer.bottom + 2) {
          problems.add(
            `text "${box.text}" spills out of its ${container.tagName.toLowerCase()}${container.className ? `.${String(container.className).split(' ')[0]}` : ''}`,
          );
          break;
        }
      }
    }
    return [...problems].slice(0, 10);
  });
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core violations of impact serious or critical. Evaluated through the debugging protocol,
 * so the page's Content-Security-Policy does not block it.
 */
export async function accessibilityViolations(page: Page, options: { contrastOnly?: boolean } = {}): Promise<string[]> {
  // The source itself is evaluated by the protocol: `new Function` inside the page would be eval, which the CSP forbids.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ contrastOnly }) => {
      const holder = window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } };
      interface AxeViolation {
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary?: string }>;
      }
      const result = await holder.axe.run(document, {
        resultTypes: ['violations'],
        ...(contrastOnly ? { runOnly: { type: 'rule', values: ['color-contrast'] } } : {}),
      });
      return result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .flatMap((violation) =>
          violation.nodes.slice(0, 3).map((node) => {
            const summary = (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim().replace(/\s+/g, ' ').slice(0, 160);
            return `axe ${violation.id} (${violation.impact}): ${String(node.target.join(' '))}${summary ? ` — ${summary}` : ''}`;
          }),
        );
    },
    { contrastOnly: options.contrastOnly ?? false },
  );
}

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/**
 * From the next navigation on, records every Content Security Policy violation in the page: an
 * inline style or script the policy blocks, a resource from elsewhere. Read with `cspViolations`.
 * Playwright's init scripts are not subject to the page's CSP, and run before the HTML is parsed,
 * so a blocked style attribute in the server's markup is caught too.
 */
export async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
      window.__cspViolations!.push(
        `CSP ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}${where} ${event.sample}`.trim(),
      );
    });
  });
}

/** The violations recorded since the page was loaded (see `recordCspViolations`). */
export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => [...new Set(window.__cspViolations ?? ['CSP violations were not recorded (recordCspViolations not called)'])]);
}
