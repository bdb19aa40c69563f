import { consentFact, errorLabel, errorSubject, explainWarning, type LogFact, looksLikeError, originOf } from './facts.js';
import { parseDictionary } from './values.js';

export interface ConsoleLine {
  time: string | null;
  /** The I-ACS message code, e.g. I-ACS023072. */
  code: string;
  message: string;
  /**
   * Which log sink printed it: Xcode shows the unified log's line (`App[pid:tid]`, microseconds) and, for
   * older SDKs, the same message again from ASL/stderr (`App[pid] <Debug>`, milliseconds). The analyser
   * counts such a pair once.
   */
  sink: 'asl' | 'log';
}

// "[FirebaseAnalytics][I-ACS023072] msg" (SDK 7+) or "[Firebase/Analytics][I-ACS023072] msg" (older).
const MARKER = /\[(?:FirebaseAnalytics|Firebase\/Analytics)\]\[(I-[A-Z]+\d+)\]\s?(.*)$/;
// Xcode / `log stream`: "2024-05-01 10:00:00.123456+0200 MyApp[123:4567] …"; Console.app: "10:00:00.123456+0200 …".
const STAMP = /(?:^|\s)(?:(\d{4}-\d\d-\d\d)[ T])?(\d\d:\d\d:\d\d(?:\.\d+)?)/;

export function parseConsoleLine(line: string): ConsoleLine | null {
  if (!line.includes('Analytics]')) return null;
  const m = MARKER.exec(line);
  if (!m) return null;
  const prefix = line.slice(0, m.index);
  const stamp = STAMP.exec(prefix);
  return {
    time: stamp ? (stamp[1] ? `${stamp[1]} ${stamp[2]}` : stamp[2]) : null,
    code: m[1],
    message: m[2],
    sink: prefix.includes('<') && /<(?:Debug|Info|Notice|Warning|Error)>/.test(prefix) ? 'asl' : 'log',
  };
}

/** Whether `line` starts a new console message (so it cannot continue a dictionary). */
export function startsConsoleMessage(line: string): boolean {
  return /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d/.test(line) || /\[(?:FirebaseAnalytics|Firebase\/Analytics)\]\[I-/.test(line);
}

const LOGGING = /^Logging event: origin, name, params: ([^,]+), ([^,]+), ([\s\S]*)$/;
const LOGGED = /^Event logged\. Event name, event params: ([^,]+), ([\s\S]*)$/;
const MARKED = /Event name, (?:event )?param(?:eter)?s: ([^,{]+?)(?:, (\{[\s\S]*))?$/;
const USER_PROPERTY = /^(Setting user property|User property set)\. Name, value: (.+?), ([\s\S]*)$/;
const USER_PROPERTY_CLEARED = /^(?:Removing|Clearing) user property\. Name: (.+)$/;

const UPLOADS: [RegExp, string][] = [
  [/^Upload task scheduled/, 'Upload scheduled'],
  // SDK 10.x+ (firebase-ios-sdk #13043): the upload starts before the real-time marking of the event.
  [/^Starting data upload/, 'Starting data upload'],
  [/^Uploading events/, 'Uploading events'],
  [/^Measurement data sent to network/, 'Uploading data'],
  [/^Successful upload|^Upload successful/, 'Upload successful'],
  [/upload failed|^Upload failed|Failed to upload/i, 'Upload failed'],
];

const INFOS: [RegExp, string][] = [
  [/^Analytics v\.?[\d.]+ started/, 'Analytics started'],
  [/^Debug mode is on/, 'Debug mode is on'],
  [/^Debug logging enabled|^To enable debug logging/, 'Debug logging'],
  [/^Analytics collection (?:enabled|disabled)/, 'Analytics collection'],
  [/^Analytics is ready to receive events/, 'Analytics ready'],
  [/^Event not sent since app measurement is disabled|^Analytics is disabled/, 'App measurement is disabled'],
  [/^No data to upload/, 'No data to upload'],
];

function userValue(raw: string): string | null {
  const value = raw.trim();
  if (value === '<null>' || value === '(null)') return null;
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

export function iosFact(message: string): LogFact | null {
  let m = LOGGING.exec(message);
  if (m)
    return {
      type: 'event',
      stage: 1,
      stageLabel: 'logging',
      rawName: m[2].trim(),
      origin: originOf(m[1].trim()),
      params: parseDictionary(m[3]),
    };
  m = LOGGED.exec(message);
  if (m) {
    const params = parseDictionary(m[2]);
    const origin = params.find((param) => param.shortName === '_o');
    return { type: 'event', stage: 3, stageLabel: 'logged', rawName: m[1].trim(), origin: originOf(origin?.value), params };
  }
  m = MARKED.exec(message);
  if (m) {
    // Only the sentence before the dictionary: its `ga_debug (_dbg) = 1` would say "debug" for both kinds.
    const head = message.slice(0, m.index);
    const label = /real-time/i.test(head) && /debug/i.test(head) ? 'marked debug' : 'marked real-time';
    if (m[2] === undefined) return { type: 'annotate', rawName: m[1].trim(), label };
    const params = parseDictionary(m[2]);
    const origin = params.find((param) => param.shortName === '_o');
    return { type: 'event', stage: 2, stageLabel: label, rawName: m[1].trim(), origin: originOf(origin?.value), params };
  }
  m = USER_PROPERTY.exec(message);
  if (m) {
    const first = m[1] === 'Setting user property';
    return {
      type: 'user_property',
      stage: first ? 1 : 2,
      stageLabel: first ? 'setting' : 'set',
      rawName: m[2].trim(),
      value: userValue(m[3]),
    };
  }
  m = USER_PROPERTY_CLEARED.exec(message);
  if (m) return { type: 'user_property', stage: 1, stageLabel: 'cleared', rawName: m[1].trim(), value: null };
  const consent = consentFact(message);
  if (consent) return consent;
  for (const [pattern, label] of UPLOADS) if (pattern.test(message)) return { type: 'upload', label };
  for (const [pattern, label] of INFOS) if (pattern.test(message)) return { type: 'info', label };
  const explanation = explainWarning(message);
  if (explanation || looksLikeError(message))
    return { type: 'error', label: errorLabel(message), subject: errorSubject(message), ...(explanation ? { explanation } : {}) };
  return null;
}
