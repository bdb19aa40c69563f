/** The decoded form of an Android logcat / iOS console capture with Firebase Analytics debug logging. */

export type AppLogPlatform = 'android' | 'ios';

/**
 * What one entry of the stream is. `screen` is a screen_view event; `error` a problem Firebase itself
 * logged; `consent` a change of the consent state (`Setting storage consent`, `Setting DMA consent`).
 */
export type AppLogKind = 'event' | 'user_property' | 'screen' | 'consent' | 'upload' | 'error' | 'info';

/**
 * Who logged an event (`ga_event_origin`, `_o`): `app` (the app's own code), `auto` (the SDK), `am`
 * (the Google Mobile Ads SDK), `fcm` (Cloud Messaging), `fiam` (In-App Messaging), `fdl` (Dynamic
 * Links), or another SDK's short name as logged. `ORIGIN_LABELS` (rules.ts) names the known ones.
 */
export type AppLogOrigin = string;

/** One parameter (or item parameter) as logged, with the SDK's short name when the log shows it (`ga_screen_class(_sc)`). */
export interface AppLogParam {
  /** The readable name: the long name, or the short name's known long form, or the short name itself. */
  name: string;
  /** The internal short name (`_sc`), when logged or known. */
  shortName: string | null;
  /** The value as logged (`null` when the log says null); null too for a nested bundle or array, see `items`. */
  value: string | null;
  /** A nested array of bundles/dictionaries (items) or a single nested bundle (one element). */
  items?: AppLogParam[][];
}

export type AppLogSeverity = 'error' | 'warning';

export interface AppLogIssue {
  code: AppLogIssueCode;
  severity: AppLogSeverity;
  message: string;
  /** The parameter, item parameter or user property the issue is about. */
  subject?: string;
}

export type AppLogIssueCode =
  | 'event_name_too_long'
  | 'event_name_invalid_start'
  | 'event_name_invalid_characters'
  | 'event_name_reserved'
  | 'event_name_reserved_prefix'
  | 'too_many_params'
  | 'param_name_too_long'
  | 'param_name_invalid'
  | 'param_name_reserved_prefix'
  | 'param_value_too_long'
  | 'too_many_items'
  | 'item_param_value_too_long'
  | 'user_property_name_too_long'
  | 'user_property_name_invalid'
  | 'user_property_name_reserved'
  | 'user_property_value_too_long'
  | 'too_many_user_properties'
  | 'too_many_event_names'
  | 'firebase_error_param'
  | 'firebase_logged_error';

export interface AppLogEntry {
  /** Position in `entries` (stable id within one result). */
  index: number;
  kind: AppLogKind;
  platform: AppLogPlatform;
  /** The time as logged, normalised to `[YYYY-]MM-DD HH:MM:SS.fff` (no time zone conversion); null when the line had none. */
  time: string | null;
  /** 1-based line numbers of every source line merged into this entry (the same event is logged up to 3 times). */
  lines: number[];
  /** Event name (long form), user property name, or a short label for upload / error / info entries. */
  name: string;
  shortName: string | null;
  origin: AppLogOrigin | null;
  /** The screen the event happened on: its own screen params, else the latest screen_view's. */
  screen: string | null;
  params: AppLogParam[];
  items: AppLogParam[][];
  /** User property value (null = cleared). */
  value?: string | null;
  /** What an informational line means in plain words (e.g. why an engagement event was not sent). */
  note?: string;
  /** The SDK stages this entry was seen at, in order: `logged (FE)`, `logged (service)`, `recorded`, `saved` … */
  stages: string[];
  /** The first source message (without the log line prefix), for the raw view and search. */
  message: string;
  /** The logcat level letter (V, D, I, W, E) or iOS message code (I-ACS023072). */
  level: string | null;
  issues: AppLogIssue[];
}

export interface AppLogUserPropertyChange {
  entryIndex: number;
  time: string | null;
  line: number;
  value: string | null;
}

export interface AppLogUserProperty {
  name: string;
  shortName: string | null;
  /** The latest value (null = cleared). */
  value: string | null;
  history: AppLogUserPropertyChange[];
}

export interface AppLogUnrecognisedLine {
  line: number;
  text: string;
}

export interface AppLogSummary {
  events: number;
  screens: number;
  userPropertyChanges: number;
  uploads: number;
  consentChanges: number;
  errors: number;
  distinctEventNames: number;
  /** Entries with at least one issue. */
  entriesWithIssues: number;
  issues: number;
}

export interface AppLogResult {
  platform: AppLogPlatform;
  totalLines: number;
  /** Lines that came from Firebase Analytics (FA / FA-SVC tags, [FirebaseAnalytics] messages) or continued one. */
  relevantLines: number;
  entries: AppLogEntry[];
  userProperties: AppLogUserProperty[];
  /** Firebase lines that were not understood (first UNRECOGNISED_KEPT only; see unrecognisedCount). */
  unrecognised: AppLogUnrecognisedLine[];
  unrecognisedCount: number;
  summary: AppLogSummary;
}
