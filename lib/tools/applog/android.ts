import {
  consentFact,
  errorLabel,
  errorSubject,
  explainWarning,
  type LogFact,
  looksLikeError,
  originOf,
  SHORT_EXPOSURE,
  SHORT_EXPOSURE_NOTE,
} from './facts.js';
import { parseBundle } from './values.js';

/** One logcat line split into its parts. `tag` is null for a bare message (no logcat prefix). */
export interface LogcatLine {
  time: string | null;
  pid: string | null;
  level: string | null;
  tag: string | null;
  message: string;
}

// `threadtime` (adb logcat default), optionally with `-v year`: "05-01 10:00:00.123  1234  1250 V FA      : msg"
const THREADTIME = /^(?:(\d{4})-)?(\d\d-\d\d)\s+(\d\d:\d\d:\d\d(?:\.\d+)?)\s+(\d+)\s+\d+\s+([VDIWEFAS])\s+(.*?)\s*:(?: (.*))?$/;
// `time`: "05-01 10:00:00.123 V/FA      ( 1234): msg" (also "05-01 10:00:00.123: V/FA(1234): msg", Eclipse-era)
const TIME = /^(?:(\d{4})-)?(\d\d-\d\d)\s+(\d\d:\d\d:\d\d(?:\.\d+)?):?\s+([VDIWEFAS])\/(.*?)\s*\(\s*(\d+)(?::\s*\d+)?\):(?: (.*))?$/;
// Android Studio before Dolphin: "2019-02-20 21:49:06.368 17047-17047/com.example V/FA: msg"
const STUDIO_OLD = /^(?:(\d{4})-)?(\d\d-\d\d)\s+(\d\d:\d\d:\d\d(?:\.\d+)?)\s+(\d+)-\d+\/\S+\s+([VDIWEFAS])\/(.*?):(?: (.*))?$/;
// Android Studio Dolphin and later: "2024-05-01 10:00:00.123  1234-1250  FA  com.example  V  msg"
const STUDIO = /^(\d{4})-(\d\d-\d\d)\s+(\d\d:\d\d:\d\d(?:\.\d+)?)\s+(\d+)-\d+\s+(\S+)\s+(?:\S+\s+)?([VDIWEFA])\s+(.*)$/;
// `brief` (and Android Studio's Run window): "V/FA      ( 1234): msg", "V/FA: msg"
const BRIEF = /^([VDIWEFAS])\/([^(:]*?)\s*(?:\(\s*(\d+)\))?:(?: (.*))?$/;

// Titanium CLI (`ti build`): "[INFO]  FA: msg", "[ERROR] FA: msg" (hansemannn/titanium-firebase-analytics #13, #17).
const TITANIUM = /^\[(TRACE|DEBUG|INFO|WARN|ERROR)\]\s+([\w.-]+):(?: (.*))?$/;
const TITANIUM_LEVELS: Readonly<Record<string, string>> = { TRACE: 'V', DEBUG: 'D', INFO: 'I', WARN: 'W', ERROR: 'E' };

const time = (year: string | undefined, date: string, clock: string) => `${year ? `${year}-` : ''}${date} ${clock}`;

export function parseLogcatLine(line: string): LogcatLine | null {
  if (line.charCodeAt(0) === 91 /* [ */) {
    const titanium = TITANIUM.exec(line);
    return titanium
      ? { time: null, pid: null, level: TITANIUM_LEVELS[titanium[1]] ?? null, tag: titanium[2], message: titanium[3] ?? '' }
      : null;
  }
  const first = line.charCodeAt(0);
  if (first >= 48 && first <= 57) {
    let m = THREADTIME.exec(line);
    if (m) return { time: time(m[1], m[2], m[3]), pid: m[4], level: m[5], tag: m[6], message: m[7] ?? '' };
    m = TIME.exec(line);
    if (m) return { time: time(m[1], m[2], m[3]), pid: m[6], level: m[4], tag: m[5], message: m[7] ?? '' };
    m = STUDIO.exec(line);
    if (m) return { time: time(m[1], m[2], m[3]), pid: m[4], level: m[6], tag: m[5], message: m[7] };
    m = STUDIO_OLD.exec(line);
    if (m) return { time: time(m[1], m[2], m[3]), pid: m[4], level: m[5], tag: m[6], message: m[7] ?? '' };
    return null;
  }
  const m = BRIEF.exec(line);
  if (m) return { time: null, pid: m[3] ?? null, level: m[1], tag: m[2], message: m[4] ?? '' };
  return null;
}

/** Firebase Analytics' logcat tags: FA (in the app) and FA-SVC (the measurement service). */
export function isFirebaseTag(tag: string | null): boolean {
  return tag === 'FA' || tag === 'FA-SVC';
}

const FE_EVENT = /^Logging event \(FE\): ([^,]+), (.*)$/;
const SVC_EVENT = /^Logging event: origin=([^,]*),name=([^,]*),params=(.*)$/;
const RECORDED = /^Event recorded: Event\{(.*)\}$/;
const USER_PROPERTY = /^Setting user property( \(FE\))?: ([^,]+), ?(.*)$/;
const USER_PROPERTY_CLEARED = /^(?:Removing|Clearing) user property( \(FE\))?: (.+)$/;
const SAVING = /^Saving event, name, data size: ([^,]+),/;

const UPLOADS: [RegExp, string][] = [
  [/^Uploading data\b/, 'Uploading data'],
  [/^Upload successful|^Successful upload/, 'Upload successful'],
  [/^Upload scheduled/, 'Upload scheduled'],
  [/^(?:Network upload failed|Upload failed)/, 'Upload failed'],
  [/^Uploading events\b/, 'Uploading events'],
];

const INFOS: [RegExp, string][] = [
  [/^Debug-level message logging enabled/, 'Debug-level message logging enabled'],
  [/^Event not sent since app measurement is disabled/, 'Event not sent since app measurement is disabled'],
  [/^Faster debug mode event logging enabled/, 'Faster debug mode event logging enabled'],
  [/^To enable faster debug mode event logging run/, 'Faster debug mode is off'],
  [/^To enable debug logging run/, 'Debug logging is off'],
  [/^Logging screen view/, 'Screen view requested'],
  [/^App measurement (?:initialized|is starting up|enabled|disabled)/, 'App measurement started'],
  [/^Setting app measurement enabled/, 'App measurement enabled flag set'],
  [/^Setting (?:user ID|user id)/, 'User ID set'],
  [/^No data to upload/, 'No data to upload'],
];

/** A message that is Firebase's even without the FA tag (a paste of bare messages). */
export function isBareFirebaseMessage(message: string): boolean {
  return /^(?:Logging event|Logging screen view|Screen exposed for less than|Event recorded: Event\{|Setting user property|Setting (?:storage|DMA) consent|Debug-level message logging enabled|Event not sent since app measurement)/.test(
    message,
  );
}

/** Reads one FA / FA-SVC message; null when it is Firebase's but not understood. */
export function androidFact(message: string, level: string | null): LogFact | null {
  let m = FE_EVENT.exec(message);
  if (m) {
    const params = parseBundle(m[2]);
    const origin = params.find(
      (param) => param.shortName === '_o' || param.name === 'ga_event_origin' || param.name === 'firebase_event_origin',
    );
    return { type: 'event', stage: 1, stageLabel: 'logged (FE)', rawName: m[1].trim(), origin: originOf(origin?.value), params };
  }
  m = SVC_EVENT.exec(message);
  if (m)
    return {
      type: 'event',
      stage: 2,
      stageLabel: 'logged (service)',
      rawName: m[2].trim(),
      origin: originOf(m[1].trim()),
      params: parseBundle(m[3]),
    };
  m = RECORDED.exec(message);
  if (m) {
    const name = /name='([^']*)'/.exec(m[1]);
    const paramsAt = m[1].indexOf('params=');
    if (name) {
      const params = paramsAt === -1 ? [] : parseBundle(m[1].slice(paramsAt + 'params='.length));
      const origin = params.find((param) => param.shortName === '_o');
      return { type: 'event', stage: 3, stageLabel: 'recorded', rawName: name[1], origin: originOf(origin?.value), params };
    }
  }
  m = SAVING.exec(message);
  if (m) return { type: 'annotate', rawName: m[1].trim(), label: 'saved' };
  m = USER_PROPERTY.exec(message);
  if (m) {
    const value = m[3].trim();
    return {
      type: 'user_property',
      stage: m[1] ? 1 : 2,
      stageLabel: m[1] ? 'set (FE)' : 'set (service)',
      rawName: m[2].trim(),
      value: value === 'null' ? null : value,
    };
  }
  m = USER_PROPERTY_CLEARED.exec(message);
  if (m)
    return {
      type: 'user_property',
      stage: m[1] ? 1 : 2,
      stageLabel: m[1] ? 'cleared (FE)' : 'cleared (service)',
      rawName: m[2].trim(),
      value: null,
    };
  const consent = consentFact(message);
  if (consent) return consent;
  if (SHORT_EXPOSURE.test(message)) return { type: 'info', label: 'Engagement not sent (screen shown < 1 s)', note: SHORT_EXPOSURE_NOTE };
  for (const [pattern, label] of UPLOADS) if (pattern.test(message)) return { type: 'upload', label };
  for (const [pattern, label] of INFOS) if (pattern.test(message)) return { type: 'info', label };
  const explanation = explainWarning(message);
  if (explanation || level === 'E' || level === 'W' || looksLikeError(message)) {
    return { type: 'error', label: errorLabel(message), subject: errorSubject(message), ...(explanation ? { explanation } : {}) };
  }
  return null;
}

/**
 * Lines of the FA-SVC upload dump (`batch {`, `  bundle {`, `    name: …`, `}`) continue the
 * "Uploading data" entry instead of counting as unrecognised.
 */
export function isDumpLine(message: string): boolean {
  return /^\s|^[{}]\s*$|^[a-z_]+ \{$|^[a-z_]+: /.test(message);
}
