/** What may not appear as such inside an inline script: `<` (which could close it or open a comment) and the line separators older engines refused in string literals. */
const UNSAFE = /[<\u2028\u2029]/g;
const ESCAPES: Record<string, string> = { '<': '\\u003C', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * The dehydrated query state as a JavaScript expression for the page's inline script. It is JSON,
 * the form the API answers in, so the first render and a later fetch in the browser see the same
 * types; no string in it can end the script. JSON.stringify is native: a signed-in page's state
 * costs a fraction of what a general serialiser (devalue) spends walking it.
 */
export function stateExpression(state: object): string {
  return JSON.stringify(state).replace(UNSAFE, (character) => ESCAPES[character]);
}
