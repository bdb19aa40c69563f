import { analyseAppLog } from '../../../../lib/tools/applog/analyser.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopEntry } from '../decode/protocol.js';
import { choicesOf, filterEntries, NO_FILTER } from './stream-filter.js';

const fixture = (path: string) => readFileSync(join(process.cwd(), path), 'utf8');

/** Two sources, as the window holds them: a shop on one phone, a game on another. */
function stream(): DesktopEntry[] {
  const shop = analyseAppLog(fixture('test/fixtures/applog/android-logcat-threadtime.txt')).entries.map((entry) => ({
    ...entry,
    source: 'a',
    app: 'com.example.shop',
  }));
  const game = analyseAppLog(fixture('companions/desktop/test/fixtures/logcat-game.txt')).entries.map((entry) => ({
    ...entry,
    source: 'b',
    app: 'com.example.game',
  }));
  return [...shop, ...game].map((entry, seq) => ({ ...entry, seq }));
}
const labels = new Map([
  ['a', 'Pixel 7 API 34'],
  ['b', 'Pixel 7'],
]);

describe('the stream filters', () => {
  const entries = stream();

  it('keeps one device, one app, one kind, one event name or only the entries with issues', () => {
    expect(filterEntries(entries, { ...NO_FILTER, source: 'b' }, labels).every((entry) => entry.app === 'com.example.game')).toBe(true);
    expect(filterEntries(entries, { ...NO_FILTER, app: 'com.example.shop' }, labels)).toHaveLength(13);
    expect(filterEntries(entries, { ...NO_FILTER, kind: 'user_property' }, labels).map((entry) => entry.name)).toEqual([
      'favorite_food',
      'membership_level_description',
      'player_tier_for_matchmaking',
    ]);
    expect(filterEntries(entries, { ...NO_FILTER, name: 'purchase' }, labels).map((entry) => entry.source)).toEqual(['a']);
    expect(filterEntries(entries, { ...NO_FILTER, onlyIssues: true }, labels).every((entry) => entry.issues.length > 0)).toBe(true);
  });

  it('searches names, parameters, values, apps and device labels, case-insensitively', () => {
    expect(filterEntries(entries, { ...NO_FILTER, search: 'SKU_2' }, labels).map((entry) => entry.name)).toEqual(['purchase']);
    expect(filterEntries(entries, { ...NO_FILTER, search: 'character' }, labels).map((entry) => entry.name)).toEqual(['level_up']);
    expect(filterEntries(entries, { ...NO_FILTER, search: 'pixel 7 api' }, labels)).toHaveLength(13);
  });

  it('skips the holes of a stream still arriving, and offers the apps and event names present', () => {
    const sparse: (DesktopEntry | undefined)[] = [entries[0], undefined, entries[5]];
    expect(filterEntries(sparse, NO_FILTER, labels)).toHaveLength(2);
    const { apps, names } = choicesOf(entries);
    expect(apps).toEqual(['com.example.game', 'com.example.shop']);
    expect(names).toContain('3rd_party_login');
    expect(names).not.toContain('favorite_food');
  });
});
