import type { ValidationMessage } from './types.js';

/**
 * Finds keys given twice in one JSON object. `JSON.parse` (and every server's body parser) silently
 * keeps the last one, so a pasted payload with `"currency"` twice would lose a value without a word;
 * the workbench reports it as GA4's NAME_DUPLICATED. Expects text that `JSON.parse` accepts.
 */
export function findDuplicateKeys(text: string): ValidationMessage[] {
  const found: ValidationMessage[] = [];
  let at = 0;

  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at += 1;
  };
  const readString = (): string => {
    const start = at;
    at += 1;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

  const readValue = (path: string): void => {
    skipSpace();
    const char = text[at];
    if (char === '{') {
      at += 1;
      const seen = new Set<string>();
      skipSpace();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      for (;;) {
        skipSpace();
        const key = readString();
        if (seen.has(key)) {
          found.push({
            fieldPath: join(path, key),
            validationCode: 'NAME_DUPLICATED',
            description: `Name [${key}] is given more than once${path ? ` in ${path}` : ''}; only the last value would be sent.`,
          });
        }
        seen.add(key);
        skipSpace();
        at += 1; // ':'
        readValue(join(path, key));
        skipSpace();
        if (text[at++] === '}') return;
      }
    } else if (char === '[') {
      at += 1;
      skipSpace();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (let index = 0; ; index += 1) {
        readValue(`${path}[${index}]`);
        skipSpace();
        if (text[at++] === ']') return;
      }
    } else if (char === '"') {
      readString();
    } else {
      while (at < text.length && !/[\s,\]}]/.test(text[at]!)) at += 1;
    }
  };

  readValue('');
  return found;
}
