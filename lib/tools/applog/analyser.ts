import { androidFact, isBareFirebaseMessage, isDumpLine, isFirebaseTag, parseLogcatLine } from './android.js';
import type { LogFact } from './facts.js';
import { iosFact, parseConsoleLine, startsConsoleMessage } from './ios.js';
import { splitName } from './rules.js';
import type {
  AppLogEntry,
  AppLogParam,
  AppLogPlatform,
  AppLogResult,
  AppLogSummary,
  AppLogUnrecognisedLine,
  AppLogUserProperty,
} from './types.js';
import { validateEntries } from './validate.js';
import { openBrackets } from './values.js';

/** Unrecognised Firebase lines kept in the result (all are counted). */
export const UNRECOGNISED_KEPT = 500;
/** A message whose brackets never close stops collecting continuation lines after this many. */
const MAX_CONTINUATION_LINES = 2000;
/**
 * A later stage of an event merges only into one of the latest entries (a log can run for hours): an
 * entry this far behind the newest no longer changes (live decoding validates it for good then).
 */
export const MERGE_WINDOW = 200;
// Colour codes that terminals and Android Studio leave in copied logs; matching the escape is the point.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
// `flutter run -v` puts "[ +153 ms] " (or "[        ] ") before every device line, Android and iOS alike.
const FLUTTER_VERBOSE = /^\[\s*(?:\+\s*\d+\s*ms)?\s*\]\s+/;
/** Xcode's two sinks print the same message within a few milliseconds; further apart it is a new message. */
const DUPLICATE_SINK_WINDOW_MS = 1000;

/** The same message from the other sink: within a second, the same text but for whitespace (one sink indents with tabs). */
function isSinkCopy(first: { time: string | null; message: string }, second: { time: string | null; message: string }): boolean {
  const a = clockMs(first.time);
  const b = clockMs(second.time);
  if (a === null || b === null || Math.abs(a - b) > DUPLICATE_SINK_WINDOW_MS) return false;
  return first.message.replace(/\s+/g, '') === second.message.replace(/\s+/g, '');
}

/** Milliseconds since midnight of a logged time (`2017-09-04 11:59:26.536845`, `11:59:26.538`), or null. */
function clockMs(time: string | null): number | null {
  const m = time ? /(\d\d):(\d\d):(\d\d(?:\.\d+)?)$/.exec(time) : null;
  return m ? (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000 : null;
}

/**
 * Guesses the platform from a sample (the first few hundred kB are plenty): iOS console output carries
 * `[FirebaseAnalytics][I-ACS…]`, logcat carries the FA / FA-SVC tags. Null when neither shows.
 */
export function detectPlatform(sample: string): AppLogPlatform | null {
  const ios = (sample.match(/\[(?:FirebaseAnalytics|Firebase\/Analytics)\]\[I-/g) ?? []).length;
  const android = (
    sample.match(
      /(?:\s[VDIWE]\s+FA(?:-SVC)?\s*:|[VDIWE]\/FA(?:-SVC)?[\s(:]|\sFA(?:-SVC)?\s+\S+\s+[VDIWE]\s|\[(?:TRACE|DEBUG|INFO|WARN|ERROR)\]\s+FA(?:-SVC)?:)/g,
    ) ?? []
  ).length;
  if (ios === 0 && android === 0) {
    if (/^\s*Logging event|Bundle\[\{/m.test(sample)) return 'android';
    if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d{4} \S+\[\d+:\w+\]/m.test(sample)) return 'ios';
    if (/^(?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+/m.test(sample)) return 'android';
    return null;
  }
  return ios > android ? 'ios' : 'android';
}

interface Pending {
  time: string | null;
  level: string | null;
  pid: string | null;
  message: string;
  lines: number[];
  depth: number;
  sink?: 'asl' | 'log';
}

interface Source {
  time: string | null;
  level: string | null;
  message: string;
  lines: number[];
  /** iOS only: the sink that printed the line (see ConsoleLine.sink). */
  sink?: 'asl' | 'log';
}

/**
 * Reads a log incrementally: `push` any chunks (split anywhere), then `finish`. Keeps only the decoded
 * entries, never the text, so a 20 MB log costs little memory; the page runs it in a Web Worker
 * (client/components/tools/applog/applog.worker.ts) so the UI stays responsive.
 */
export class AppLogAnalyser {
  private rest = '';
  private lineNumber = 0;
  private relevant = 0;
  private readonly entries: AppLogEntry[] = [];
  private readonly userProperties = new Map<string, AppLogUserProperty>();
  private readonly unrecognised: AppLogUnrecognisedLine[] = [];
  private unrecognisedCount = 0;
  private pending: Pending | null = null;
  private currentScreen: string | null = null;
  private lastUpload: AppLogEntry | null = null;
  /** iOS: the last message applied and its entry, to count Xcode's second copy of it once. */
  private lastIosSource: Source | null = null;
  private lastIosEntry: AppLogEntry | null = null;
  /** The latest consent entry per consent type, for the FE / service pair of one change. */
  private readonly lastConsent = new Map<string, AppLogEntry>();
  /** Entries by name still waiting for later SDK stages, oldest first. */
  private readonly open = new Map<string, { entry: AppLogEntry; stage: number }[]>();

  constructor(readonly platform: AppLogPlatform) {}

  get linesRead(): number {
    return this.lineNumber;
  }

  push(chunk: string): void {
    const text = this.rest + chunk;
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) break;
      this.line(text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end));
      start = end + 1;
    }
    this.rest = text.slice(start);
  }

  /**
   * Ends the stream without validating: the last line without a line end and a message still
   * collecting continuation lines are applied. Live decoding (live.ts) validates as it goes.
   */
  end(): void {
    if (this.rest) {
      this.line(this.rest.endsWith('\r') ? this.rest.slice(0, -1) : this.rest);
      this.rest = '';
    }
    this.flushPending();
  }

  /** Live use (live.ts): the entries so far, the same objects later stages of the SDK still update. */
  get entriesSoFar(): readonly AppLogEntry[] {
    return this.entries;
  }

  /** Live use: the user properties as they stand now. */
  get userPropertiesSoFar(): AppLogUserProperty[] {
    return [...this.userProperties.values()];
  }

  /** Live use: lines read, lines from Firebase, Firebase lines not understood. */
  get counts(): { lines: number; firebase: number; unrecognised: number } {
    return { lines: this.lineNumber, firebase: this.relevant, unrecognised: this.unrecognisedCount };
  }

  finish(): AppLogResult {
    this.end();
    validateEntries(this.entries);
    return {
      platform: this.platform,
      totalLines: this.lineNumber,
      relevantLines: this.relevant,
      entries: this.entries,
      userProperties: [...this.userProperties.values()],
      unrecognised: this.unrecognised,
      unrecognisedCount: this.unrecognisedCount,
      summary: summariseEntries(this.entries),
    };
  }

  private line(raw: string): void {
    this.lineNumber++;
    let text = this.lineNumber === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // `adb logcat -v color` and some terminals colour the lines.
    if (text.includes('\u001b[')) text = text.replace(ANSI, '');
    if (text.charCodeAt(0) === 91 /* [ */) {
      const flutter = FLUTTER_VERBOSE.exec(text);
      if (flutter) text = text.slice(flutter[0].length);
    }
    if (this.platform === 'android') this.androidLine(text);
    else this.iosLine(text);
  }

  /* ------------------------------- Android ------------------------------- */

  private androidLine(text: string): void {
    // Cheap filter first: almost every line of a real logcat capture is someone else's.
    const parsed = text.includes('FA') ? parseLogcatLine(text) : null;
    let time: string | null;
    let level: string | null;
    let pid: string | null;
    let message: string;
    if (parsed && isFirebaseTag(parsed.tag)) {
      ({ time, level, pid, message } = parsed);
    } else if (!parsed && isBareFirebaseMessage(text.trim())) {
      time = null;
      level = null;
      pid = null;
      message = text.trim();
    } else {
      if (this.pending && this.pending.time === null && !parsed && text.trim()) {
        // A bare (prefix-less) paste whose bundle wraps onto the next line.
        this.continuePending(text, false);
      }
      return;
    }
    this.relevant++;
    const line = this.lineNumber;

    if (this.pending) {
      // logcat splits messages longer than ~4 kB into several lines with the same header.
      if (this.pending.pid === pid && !isBareFirebaseMessage(message) && !message.startsWith('Setting ')) {
        this.continuePending(message, false);
        return;
      }
      this.flushPending();
    }
    if (this.lastUpload && isDumpLine(message)) {
      this.lastUpload.lines.push(line);
      return;
    }
    this.lastUpload = null;
    if ((message.startsWith('Logging event') || message.startsWith('Event recorded')) && openBrackets(message, false) > 0) {
      this.pending = { time, level, pid, message, lines: [line], depth: openBrackets(message, false) };
      return;
    }
    this.apply(androidFact(message, level), { time, level, message, lines: [line] });
  }

  /* --------------------------------- iOS --------------------------------- */

  private iosLine(text: string): void {
    if (this.pending) {
      if (!startsConsoleMessage(text)) {
        this.relevant++;
        this.continuePending(text, true);
        return;
      }
      this.flushPending();
    }
    const parsed = parseConsoleLine(text);
    if (!parsed) return;
    this.relevant++;
    const depth = openBrackets(parsed.message, true);
    if (depth > 0) {
      this.pending = {
        time: parsed.time,
        level: parsed.code,
        pid: null,
        message: parsed.message,
        lines: [this.lineNumber],
        depth,
        sink: parsed.sink,
      };
      return;
    }
    this.applyIos({ time: parsed.time, level: parsed.code, message: parsed.message, lines: [this.lineNumber], sink: parsed.sink });
  }

  /**
   * Applies one iOS message unless it is Xcode's second copy of the previous one: the same code and text
   * (whitespace aside: one sink indents with tabs) from the other sink, within a second.
   */
  private applyIos(source: Source): void {
    const last = this.lastIosSource;
    // Cheap tests first: almost every capture has one sink, so the texts are rarely compared.
    if (last && last.sink !== source.sink && last.level === source.level && isSinkCopy(last, source)) {
      this.lastIosEntry?.lines.push(...source.lines);
      this.lastIosSource = null;
      return;
    }
    const before = this.entries.length;
    const touched = this.apply(iosFact(source.message), source);
    this.lastIosSource = source;
    this.lastIosEntry = touched ?? (this.entries.length > before ? this.entries[this.entries.length - 1]! : null);
  }

  /* ------------------------------- shared -------------------------------- */

  private continuePending(text: string, newline: boolean): void {
    const pending = this.pending!;
    pending.message += newline ? `\n${text}` : text;
    pending.lines.push(this.lineNumber);
    pending.depth += openBrackets(text, newline);
    if (pending.depth <= 0 || pending.lines.length >= MAX_CONTINUATION_LINES) this.flushPending();
  }

  private flushPending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    const source: Source = { time: pending.time, level: pending.level, message: pending.message, lines: pending.lines, sink: pending.sink };
    if (this.platform === 'android') this.apply(androidFact(pending.message, pending.level), source);
    else this.applyIos(source);
  }

  /** Applies one message; returns the entry it created or merged into, if any. */
  private apply(fact: LogFact | null, source: Source): AppLogEntry | null {
    if (!fact) {
      this.unrecognisedCount++;
      if (this.unrecognised.length < UNRECOGNISED_KEPT) this.unrecognised.push({ line: source.lines[0], text: source.message });
      return null;
    }
    switch (fact.type) {
      case 'event':
        return this.event(fact, source);
      case 'user_property':
        return this.userProperty(fact, source);
      case 'annotate': {
        const { name } = splitName(fact.rawName);
        const open = this.open.get(`event:${name}`);
        const target = open?.find((candidate) => !candidate.entry.stages.includes(fact.label))?.entry;
        if (target) {
          target.stages.push(fact.label);
          target.lines.push(...source.lines);
        }
        return target ?? null;
      }
      case 'upload': {
        const entry = this.add({ kind: 'upload', name: fact.label, source });
        this.lastUpload = entry;
        return entry;
      }
      case 'consent':
        return this.consent(fact, source);
      case 'error': {
        const entry = this.add({ kind: 'error', name: fact.label, source });
        const logged = source.message.split('\n')[0];
        entry.issues.push({
          code: 'firebase_logged_error',
          severity: 'error',
          message: fact.explanation ? `${fact.explanation} (Firebase logged: ${logged})` : `Firebase logged: ${logged}`,
          ...(fact.subject ? { subject: fact.subject } : {}),
        });
        return entry;
      }
      case 'info': {
        const entry = this.add({ kind: 'info', name: fact.label, source });
        if (fact.note) entry.note = fact.note;
        return entry;
      }
    }
  }

  /** A consent-state change; the FE line and the service's line of the same change are one entry. */
  private consent(fact: Extract<LogFact, { type: 'consent' }>, source: Source): AppLogEntry {
    const settings = (params: AppLogParam[]) =>
      params
        .filter((param) => param.name !== 'source')
        .map((param) => `${param.name}=${param.value}`)
        .join(',');
    const last = this.lastConsent.get(fact.label);
    if (
      last &&
      last.index >= this.entries.length - MERGE_WINDOW &&
      !last.stages.includes(fact.stageLabel) &&
      settings(last.params) === settings(fact.settings)
    ) {
      last.stages.push(fact.stageLabel);
      last.lines.push(...source.lines);
      return last;
    }
    const entry = this.add({ kind: 'consent', name: fact.label, source });
    entry.params = fact.settings;
    entry.stages.push(fact.stageLabel);
    this.lastConsent.set(fact.label, entry);
    return entry;
  }

  private add(init: { kind: AppLogEntry['kind']; name: string; shortName?: string | null; source: Source }): AppLogEntry {
    const entry: AppLogEntry = {
      index: this.entries.length,
      kind: init.kind,
      platform: this.platform,
      time: init.source.time,
      lines: [...init.source.lines],
      name: init.name,
      shortName: init.shortName ?? null,
      origin: null,
      screen: this.currentScreen,
      params: [],
      items: [],
      stages: [],
      message: init.source.message,
      level: init.source.level,
      issues: [],
    };
    this.entries.push(entry);
    return entry;
  }

  /**
   * Finds the oldest recent entry of `key` not yet seen at `stage` (and, for an event, one the line can
   * belong to: see `isSameEvent`), or null.
   */
  private mergeTarget(key: string, stage: number, event?: EventIdentity): { entry: AppLogEntry; stage: number } | null {
    const open = this.open.get(key);
    // Stage 1 is the first a line can show: nothing earlier to merge into.
    if (!open || stage <= 1) return null;
    const oldest = this.entries.length - MERGE_WINDOW;
    while (open.length && open[0].entry.index < oldest) open.shift();
    return open.find((candidate) => candidate.stage < stage && (!event || isSameEvent(candidate.entry, event))) ?? null;
  }

  private remember(key: string, entry: AppLogEntry, stage: number): void {
    const open = this.open.get(key) ?? [];
    open.push({ entry, stage });
    if (open.length > 16) open.shift();
    this.open.set(key, open);
  }

  private event(fact: Extract<LogFact, { type: 'event' }>, source: Source): AppLogEntry {
    const { name, shortName } = splitName(fact.rawName);
    const key = `event:${name}`;
    const { params, items } = splitItems(fact.params);
    // The real-time / debug marking is one of the stages, but SDK 10.x+ logs the real-time marking after
    // "Event logged" (and after "Starting data upload"): it joins the oldest recent entry of that name
    // that has not been marked so yet, whatever stage it has reached.
    const marking = fact.stageLabel.startsWith('marked');
    const target = marking
      ? this.markTarget(key, fact.stageLabel, { origin: fact.origin, params })
      : this.mergeTarget(key, fact.stage, { origin: fact.origin, params });
    if (target) {
      const entry = target.entry;
      target.stage = Math.max(target.stage, fact.stage);
      entry.stages.push(fact.stageLabel);
      entry.lines.push(...source.lines);
      entry.shortName ??= shortName;
      entry.origin ??= fact.origin;
      const known = new Set(entry.params.map((param) => param.name));
      for (const param of params) if (!known.has(param.name)) entry.params.push(param);
      if (entry.items.length === 0) entry.items = items;
      return entry;
    }
    const screenView = name === 'screen_view' || shortName === '_vs';
    const firebaseError = name === 'error' && (shortName === '_err' || fact.origin === 'auto');
    const entry = this.add({ kind: screenView ? 'screen' : firebaseError ? 'error' : 'event', name, shortName, source });
    entry.origin = fact.origin;
    entry.params = params;
    entry.items = items;
    entry.stages.push(fact.stageLabel);
    const own = paramValue(params, '_sn', 'ga_screen') ?? paramValue(params, '_sc', 'ga_screen_class');
    if (screenView && own) this.currentScreen = own;
    entry.screen = own ?? this.currentScreen;
    this.remember(key, entry, fact.stage);
    return entry;
  }

  /** The oldest recent entry of `key` without the `label` marking yet, or null. */
  private markTarget(key: string, label: string, event: EventIdentity): { entry: AppLogEntry; stage: number } | null {
    const open = this.open.get(key);
    if (!open) return null;
    const oldest = this.entries.length - MERGE_WINDOW;
    while (open.length && open[0].entry.index < oldest) open.shift();
    return open.find((candidate) => !candidate.entry.stages.includes(label) && isSameEvent(candidate.entry, event)) ?? null;
  }

  private userProperty(fact: Extract<LogFact, { type: 'user_property' }>, source: Source): AppLogEntry {
    const { name, shortName } = splitName(fact.rawName);
    const key = `user_property:${name}`;
    const target = this.mergeTarget(key, fact.stage);
    if (target && target.entry.value === fact.value) {
      target.stage = fact.stage;
      target.entry.stages.push(fact.stageLabel);
      target.entry.lines.push(...source.lines);
      return target.entry;
    }
    const entry = this.add({ kind: 'user_property', name, shortName, source });
    entry.value = fact.value;
    entry.stages.push(fact.stageLabel);
    this.remember(key, entry, fact.stage);
    const state = this.userProperties.get(name) ?? { name, shortName, value: null, history: [] };
    state.value = fact.value;
    state.history.push({ entryIndex: entry.index, time: entry.time, line: entry.lines[0], value: fact.value });
    this.userProperties.set(name, state);
    return entry;
  }
}

function splitItems(all: AppLogParam[]): { params: AppLogParam[]; items: AppLogParam[][] } {
  const index = all.findIndex((param) => param.name === 'items' && param.items);
  if (index === -1) return { params: all, items: [] };
  return { params: all.filter((_, i) => i !== index), items: all[index].items ?? [] };
}

/** What a line says of the event it logs, to tell whether it continues an open entry. */
interface EventIdentity {
  origin: AppLogEntry['origin'];
  params: AppLogParam[];
}

/**
 * Parameters the SDK fixes when an event is logged and carries unchanged through every later stage:
 * two lines of the same name that disagree on one of them are two events (an auto-logged
 * `screen_view` of MainActivity and the app's own `screen_view` of CheckoutFragment), never the
 * stages of one, even when a line of the first is missing from the log (a filtered or dropped line).
 */
const IDENTITY_PARAMS: ReadonlyArray<readonly [shortName: string, name: string]> = [
  ['_o', 'ga_event_origin'],
  ['_sc', 'ga_screen_class'],
  ['_sn', 'ga_screen'],
  ['_si', 'ga_screen_id'],
];

/** Whether a later stage's line can belong to `entry`: the same origin and screen, where both say. */
function isSameEvent(entry: AppLogEntry, line: EventIdentity): boolean {
  if (entry.origin && line.origin && entry.origin !== line.origin) return false;
  return IDENTITY_PARAMS.every(([shortName, name]) => {
    const mine = paramValue(entry.params, shortName, name);
    const theirs = paramValue(line.params, shortName, name);
    return mine === null || theirs === null || mine === theirs;
  });
}

function paramValue(params: AppLogParam[], shortName: string, name: string): string | null {
  const param = params.find((candidate) => candidate.shortName === shortName || candidate.name === name);
  return param?.value ?? null;
}

/** The counts of a stream's entries, issues included. */
export function summariseEntries(entries: readonly AppLogEntry[]): AppLogSummary {
  const counts = new Map<AppLogEntry['kind'], number>();
  for (const entry of entries) counts.set(entry.kind, (counts.get(entry.kind) ?? 0) + 1);
  const count = (kind: AppLogEntry['kind']) => counts.get(kind) ?? 0;
  const eventNames = new Set(entries.filter((entry) => entry.kind === 'event' || entry.kind === 'screen').map((entry) => entry.name));
  const withIssues = entries.filter((entry) => entry.issues.length > 0);
  return {
    events: count('event') + count('screen'),
    screens: count('screen'),
    userPropertyChanges: count('user_property'),
    uploads: count('upload'),
    consentChanges: count('consent'),
    errors: count('error'),
    distinctEventNames: eventNames.size,
    entriesWithIssues: withIssues.length,
    issues: withIssues.reduce((sum, entry) => sum + entry.issues.length, 0),
  };
}

/** Analyses a whole log in one call (Node, tests, small pastes). */
export function analyseAppLog(text: string, options: { platform?: AppLogPlatform } = {}): AppLogResult {
  const platform = options.platform ?? detectPlatform(text.slice(0, 512 * 1024)) ?? 'android';
  const analyser = new AppLogAnalyser(platform);
  analyser.push(text);
  return analyser.finish();
}
