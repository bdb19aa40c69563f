import { AppLogAnalyser, detectPlatform, MERGE_WINDOW } from './analyser.js';
import type { AppLogEntry, AppLogKind, AppLogPlatform, AppLogSummary, AppLogUserProperty } from './types.js';
import { StreamValidator } from './validate.js';

/** Text of a stream of unknown platform (a file) read before its platform is decided. */
export const LIVE_DETECT_CHARS = 64 * 1024;

export interface LiveUpdate {
  platform: AppLogPlatform;
  /**
   * Entries new or changed since the last update, with their issues. An entry's issues are final
   * once it is {@link MERGE_WINDOW} entries old (no later stage of the SDK can change it then) or
   * the stream has ended; before, the stream-wide limits are checked against the entries settled so far.
   */
  entries: AppLogEntry[];
  /** Every user property as it stands, when one changed since the last update; else null. */
  userProperties: AppLogUserProperty[] | null;
  summary: AppLogSummary;
  lines: { total: number; firebase: number; unrecognised: number };
}

/**
 * Decodes a stream that goes on (a device's log in the desktop app) with the same analyser as a
 * whole capture: `push` text as it arrives, `take` what changed. Validation runs as entries arrive
 * instead of once at the end (`StreamValidator`), so a live view shows issues the moment an event is
 * logged, and a stream of hours costs the work of each entry once, not the whole stream per update.
 */
export class LiveAppLog {
  private analyser: AppLogAnalyser | null = null;
  private waiting: string[] = [];
  private waitingChars = 0;
  private readonly validator = new StreamValidator();
  /** Entries [0, settled) have their final issues. */
  private settled = 0;
  /** What was last reported of each entry not settled yet: `<lines>:<issues>`. */
  private readonly reported = new Map<number, string>();
  private counted = 0;
  private readonly kinds = new Map<AppLogKind, number>();
  private readonly eventNames = new Set<string>();
  private settledWithIssues = 0;
  private settledIssues = 0;
  private userPropertyChanges = -1;
  private ended = false;

  /** `auto`: the platform is detected from the first {@link LIVE_DETECT_CHARS} characters (a file). */
  constructor(choice: AppLogPlatform | 'auto') {
    if (choice !== 'auto') this.analyser = new AppLogAnalyser(choice);
  }

  get platform(): AppLogPlatform | null {
    return this.analyser?.platform ?? null;
  }

  /** Text as it arrives, split anywhere (a line may end in the next push). */
  push(text: string): void {
    if (this.ended) throw new Error('The stream has ended.');
    if (this.analyser) return this.analyser.push(text);
    this.waiting.push(text);
    this.waitingChars += text.length;
    if (this.waitingChars >= LIVE_DETECT_CHARS) this.decide();
  }

  private decide(): AppLogAnalyser {
    const text = this.waiting.join('');
    this.waiting = [];
    this.analyser = new AppLogAnalyser(detectPlatform(text) ?? 'android');
    this.analyser.push(text);
    return this.analyser;
  }

  /**
   * What changed since the last call, or null when nothing did. `end` ends the stream: the last
   * line is read and every entry validated for good.
   */
  take(end = false): LiveUpdate | null {
    if (end && !this.ended) {
      this.ended = true;
      (this.analyser ?? this.decide()).end();
    }
    const analyser = this.analyser;
    if (!analyser) return null;
    const entries = analyser.entriesSoFar;
    const changed: AppLogEntry[] = [];

    for (; this.counted < entries.length; this.counted++) {
      const entry = entries[this.counted];
      this.kinds.set(entry.kind, (this.kinds.get(entry.kind) ?? 0) + 1);
      if (entry.kind === 'event' || entry.kind === 'screen') this.eventNames.add(entry.name);
    }

    const settleTo = this.ended ? entries.length : Math.max(this.settled, entries.length - MERGE_WINDOW);
    for (let index = this.settled; index < settleTo; index++) {
      const entry = entries[index];
      entry.issues.push(...this.validator.issuesOf(entry));
      if (entry.issues.length) {
        this.settledWithIssues++;
        this.settledIssues += entry.issues.length;
      }
      if (this.reported.get(index) !== `${entry.lines.length}:${entry.issues.length}`) changed.push(entry);
      this.reported.delete(index);
    }
    this.settled = settleTo;

    let openWithIssues = 0;
    let openIssues = 0;
    for (let index = this.settled; index < entries.length; index++) {
      const entry = entries[index];
      const provisional = this.validator.issuesOf(entry, false);
      const issues = provisional.length ? [...entry.issues, ...provisional] : entry.issues;
      if (issues.length) {
        openWithIssues++;
        openIssues += issues.length;
      }
      const signature = `${entry.lines.length}:${issues.length}`;
      if (this.reported.get(index) !== signature) {
        this.reported.set(index, signature);
        changed.push(provisional.length ? { ...entry, issues } : entry);
      }
    }

    const count = (kind: AppLogKind) => this.kinds.get(kind) ?? 0;
    const userPropertiesChanged = count('user_property') !== this.userPropertyChanges;
    this.userPropertyChanges = count('user_property');
    if (!changed.length && !userPropertiesChanged && !end) return null;
    const { lines, firebase, unrecognised } = analyser.counts;
    return {
      platform: analyser.platform,
      entries: changed,
      userProperties: userPropertiesChanged ? analyser.userPropertiesSoFar : null,
      summary: {
        events: count('event') + count('screen'),
        screens: count('screen'),
        userPropertyChanges: count('user_property'),
        uploads: count('upload'),
        consentChanges: count('consent'),
        errors: count('error'),
        distinctEventNames: this.eventNames.size,
        entriesWithIssues: this.settledWithIssues + openWithIssues,
        issues: this.settledIssues + openIssues,
      },
      lines: { total: lines, firebase, unrecognised },
    };
  }
}
