/**
 * dataLayer pushes and gtag() calls as plain data. The MAIN-world script of the extension copies a
 * pushed value at the moment it is pushed (pages mutate their objects afterwards), so the copy must
 * be cheap, bounded and safe on anything a page can push: DOM elements (GTM's `gtm.element`),
 * functions (`eventCallback`), cycles, getters that throw, huge arrays.
 */

export const PLAIN_LIMITS = { depth: 8, keys: 200, string: 2_000, nodes: 5_000 } as const;

const toStringTag = (value: object): string => Object.prototype.toString.call(value).slice(8, -1);

/** True for the `arguments` object gtag() pushes (`function gtag(){dataLayer.push(arguments)}`). */
export function isArguments(value: unknown): boolean {
  return typeof value === 'object' && value !== null && toStringTag(value) === 'Arguments';
}

function describeNode(value: object): string | null {
  const node = value as { nodeType?: unknown; nodeName?: unknown; id?: unknown; className?: unknown };
  if (typeof node.nodeType !== 'number' || typeof node.nodeName !== 'string') return null;
  const id = typeof node.id === 'string' && node.id ? `#${node.id}` : '';
  const className = typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
  return `[${node.nodeName.toLowerCase()}${id}${className}]`;
}

/**
 * A JSON-safe copy of `value`: strings cut at PLAIN_LIMITS.string characters, at most
 * PLAIN_LIMITS.keys keys or items per level and PLAIN_LIMITS.depth levels, PLAIN_LIMITS.nodes values
 * in all; functions, DOM nodes, cycles and what cannot be read become short descriptions in
 * brackets. Never throws.
 */
export function toPlainValue(value: unknown): unknown {
  let nodes = 0;
  const seen = new Set<object>();
  const copy = (input: unknown, depth: number): unknown => {
    nodes++;
    if (nodes > PLAIN_LIMITS.nodes) return '[…]';
    if (input === null || typeof input === 'boolean') return input;
    if (typeof input === 'number') return Number.isFinite(input) ? input : String(input);
    if (typeof input === 'string') return input.length > PLAIN_LIMITS.string ? `${input.slice(0, PLAIN_LIMITS.string)}…` : input;
    if (typeof input === 'undefined') return '[undefined]';
    if (typeof input === 'bigint') return `${input}n`;
    if (typeof input === 'symbol') return `[${String(input)}]`;
    if (typeof input === 'function') return `[function ${input.name || 'anonymous'}]`;
    const object = input as object;
    if (seen.has(object)) return '[circular]';
    const node = describeNode(object);
    if (node) return node;
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? '[invalid date]' : object.toISOString();
    if (depth >= PLAIN_LIMITS.depth) return Array.isArray(object) || isArguments(object) ? '[array]' : '[object]';
    seen.add(object);
    try {
      if (Array.isArray(object) || isArguments(object)) {
        const list = object as ArrayLike<unknown>;
        const out: unknown[] = [];
        const length = Math.min(list.length, PLAIN_LIMITS.keys);
        for (let index = 0; index < length; index++) out.push(copy(list[index], depth + 1));
        if (list.length > length) out.push(`[…${list.length - length} more]`);
        return out;
      }
      const out: Record<string, unknown> = {};
      let count = 0;
      for (const key of Object.keys(object)) {
        if (count++ >= PLAIN_LIMITS.keys) {
          out['…'] = 'more keys';
          break;
        }
        let field: unknown;
        try {
          field = (object as Record<string, unknown>)[key];
        } catch {
          field = '[unreadable]';
        }
        out[key] = copy(field, depth + 1);
      }
      return out;
    } catch {
      return '[unreadable]';
    } finally {
      seen.delete(object);
    }
  };
  return copy(value, 0);
}

/**
 * The first script URL in a call stack that is not the extension's own (the script that called
 * dataLayer.push or gtag), or null. Chromium writes `at fn (https://…/gtm.js:1:200)`, Firefox
 * `fn@https://…/gtm.js:1:200`.
 */
export function pushingScript(stack: string | undefined): string | null {
  if (!stack) return null;
  for (const match of stack.matchAll(/((?:https?|file):\/\/[^\s)]+?)(?::\d+){1,2}\)?(?:\s|$)/g)) {
    return match[1]!;
  }
  return null;
}

/** A gtag() command as logged: `consent default {…}`, `event purchase {…}`, `config G-… {…}`. */
export interface GtagCommand {
  command: string;
  /** `default` / `update` for consent, the event name, the measurement id, the setting… */
  target: string | null;
  params: Record<string, unknown> | null;
}

export function gtagCommand(args: unknown): GtagCommand | null {
  if (!Array.isArray(args) || typeof args[0] !== 'string') return null;
  const [command, target, params] = args as [string, unknown, unknown];
  return {
    command,
    target: typeof target === 'string' ? target : null,
    params: typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : null,
  };
}

/** The name a dataLayer entry is listed under: `event` of a push, or the gtag command. */
export function dataLayerName(record: { gtag: boolean; value: unknown }): string {
  if (record.gtag) {
    const command = gtagCommand(record.value);
    if (!command) return 'gtag()';
    // `gtag('js', new Date())` names a time, not something to list it by.
    return command.target && command.command !== 'js' ? `gtag ${command.command} ${command.target}` : `gtag ${command.command}`;
  }
  const value = record.value as { event?: unknown } | null;
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.event === 'string') return value.event;
  return Array.isArray(record.value) ? 'push (array)' : 'push (no event)';
}
