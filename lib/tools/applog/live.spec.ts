import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseAppLog, MERGE_WINDOW } from './analyser.js';
import { LiveAppLog, type LiveUpdate } from './live.js';
import type { AppLogEntry } from './types.js';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'test/fixtures/applog', name), 'utf8');

/** Applies updates as the desktop window does: each entry replaces the one with its index. */
function replay(updates: LiveUpdate[]): AppLogEntry[] {
  const entries: AppLogEntry[] = [];
  for (const update of updates) for (const entry of update.entries) entries[entry.index] = structuredClone(entry);
  return entries;
}

/** Streams `text` in pieces of `lines` lines, taking an update after each, then ends it. */
function stream(text: string, choice: 'android' | 'ios' | 'auto', lines: number): LiveUpdate[] {
  const live = new LiveAppLog(choice);
  const updates: LiveUpdate[] = [];
  const all = text.split('\n');
  for (let at = 0; at < all.length; at += lines) {
    const piece = all.slice(at, at + lines).join('\n');
    live.push(at + lines < all.length ? `${piece}\n` : piece);
    const update = live.take();
    if (update) updates.push(update);
  }
  updates.push(live.take(true)!);
  return updates;
}

describe('LiveAppLog', () => {
  it.each([
    ['android-logcat-threadtime.txt', 'android'],
    ['ios-console-xcode.txt', 'ios'],
    ['real-ios-10x-marking-after-logged.txt', 'ios'],
    ['real-ios-xcode-two-sinks.txt', 'ios'],
    ['real-android-react-native.txt', 'android'],
  ] as const)('ends with the same stream as the whole-capture analysis: %s, fed line by line and in pieces', (name, platform) => {
    const text = fixture(name);
    const whole = analyseAppLog(text, { platform });
    for (const size of [1, 3, 1000]) {
      const updates = stream(text, platform, size);
      expect(replay(updates)).toEqual(whole.entries);
      const last = updates[updates.length - 1];
      expect(last.summary).toEqual(whole.summary);
      expect(last.lines).toEqual({ total: whole.totalLines, firebase: whole.relevantLines, unrecognised: whole.unrecognisedCount });
    }
  });

  it('shows an event the moment its first stage is logged and updates it with the later stages', () => {
    const lines = fixture('android-logcat-threadtime.txt').split('\n');
    const fe = lines.findIndex((line) => line.includes('Logging event (FE): purchase'));
    const live = new LiveAppLog('android');
    live.push(`${lines.slice(0, fe + 1).join('\n')}\n`);
    const first = live.take()!;
    const purchase = first.entries.find((entry) => entry.name === 'purchase')!;
    expect(purchase.stages).toEqual(['logged (FE)']);
    live.push(`${lines[fe + 1]}\n`);
    const second = live.take()!;
    expect(second.entries.map((entry) => entry.name)).toEqual(['purchase']);
    expect(second.entries[0].index).toBe(purchase.index);
    expect(second.entries[0].stages).toEqual(['logged (FE)', 'logged (service)']);
    expect(live.take()).toBeNull();
  });

  it('reports an issue at once, before the entry is settled', () => {
    const live = new LiveAppLog('android');
    live.push(
      '05-01 10:00:06.000  1234  1260 V FA      : Logging event (FE): add to cart, Bundle[{ga_event_origin(_o)=app, firebase_screen_class(_sc)=Main}]\n',
    );
    const update = live.take()!;
    expect(update.entries[0].issues.map((issue) => issue.code)).toContain('event_name_invalid_characters');
    expect(update.summary.issues).toBeGreaterThan(0);
  });

  it('counts the 500 distinct event names across the stream, as the whole analysis does', () => {
    const lines = Array.from(
      { length: 520 },
      (_, n) =>
        `05-01 10:00:00.${String(n).padStart(3, '0')}  1234  1260 V FA      : Logging event (FE): custom_${n}, Bundle[{ga_event_origin(_o)=app}]`,
    );
    const text = lines.join('\n');
    const updates = stream(text, 'android', 7);
    const entries = replay(updates);
    const whole = analyseAppLog(text, { platform: 'android' });
    expect(entries).toEqual(whole.entries);
    expect(entries[500].issues.map((issue) => issue.code)).toEqual(['too_many_event_names']);
    expect(entries[499].issues).toEqual([]);
  });

  it('sends each settled entry once more at most, so a long stream costs its new entries per update', () => {
    const live = new LiveAppLog('android');
    let most = 0;
    for (let batch = 0; batch < 50; batch++) {
      const lines = Array.from(
        { length: 40 },
        (_, n) =>
          `05-01 10:${String(batch).padStart(2, '0')}:${String(n).padStart(2, '0')}.000  1234  1260 V FA      : Logging event (FE): level_up, Bundle[{ga_event_origin(_o)=app, level=${n}}]`,
      );
      live.push(`${lines.join('\n')}\n`);
      most = Math.max(most, live.take()?.entries.length ?? 0);
    }
    // 40 new entries and the 40 that leave the merge window (sent again with their final issues only if they differ).
    expect(most).toBeLessThanOrEqual(80);
    expect(MERGE_WINDOW).toBeGreaterThan(40);
  });

  it('detects the platform of a file from its text', () => {
    const text = fixture('ios-console-xcode.txt');
    const updates = stream(text, 'auto', 5);
    expect(updates[updates.length - 1].platform).toBe('ios');
    expect(replay(updates)).toEqual(analyseAppLog(text).entries);
  });

  it('refuses text after the end', () => {
    const live = new LiveAppLog('ios');
    live.take(true);
    expect(() => live.push('x\n')).toThrow('The stream has ended.');
  });
});
