import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidationMessage } from './types.js';
import { validateGa4mpRequest } from './validate.js';

interface Fixture {
  description: string;
  /** Where a real-world sample comes from (required for real-* and constructed-* fixtures; see SOURCES.md). */
  source?: string;
  now: string;
  query: unknown;
  body: unknown;
  validationMessages: ValidationMessage[];
}

const folder = join(process.cwd(), 'test/fixtures/ga4mp');
const fixtures = readdirSync(folder)
  .filter((file) => file.endsWith('.json'))
  .map((file) => [file, JSON.parse(readFileSync(join(folder, file), 'utf8')) as Fixture] as const);

describe('realistic payloads in test/fixtures/ga4mp', () => {
  it('has valid and invalid fixtures', () => {
    expect(fixtures.some(([, fixture]) => fixture.validationMessages.length === 0)).toBe(true);
    expect(fixtures.some(([, fixture]) => fixture.validationMessages.length > 0)).toBe(true);
  });

  it('names the source of every real-world and constructed sample', () => {
    const sourced = fixtures.filter(([file]) => /^(real|constructed)-/.test(file));
    expect(sourced.length).toBeGreaterThanOrEqual(8);
    for (const [file, fixture] of sourced)
      expect([file, typeof fixture.source === 'string' && fixture.source.length > 40]).toEqual([file, true]);
  });

  it.each(fixtures)('%s answers its expected validationMessages', (_file, fixture) => {
    expect(validateGa4mpRequest(fixture.query, fixture.body, { now: new Date(fixture.now) })).toEqual({
      validationMessages: fixture.validationMessages,
    });
  });
});
