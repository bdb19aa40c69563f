import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, found by walking up from this file to the folder holding `nest-cli.json`.
 * Works from the TypeScript sources (tests) and from the compiled `dist/app/src` alike.
 */
export const PROJECT_ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'nest-cli.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Hitscope project root (nest-cli.json)');
    dir = parent;
  }
  return dir;
})();
