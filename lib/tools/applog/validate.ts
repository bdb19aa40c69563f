import {
  APP_LIMITS,
  FIREBASE_ERROR_CODES,
  hasReservedPrefix,
  isAppOrigin,
  isSdkName,
  RESERVED_EVENT_NAMES,
  RESERVED_USER_PROPERTY_NAMES,
} from './rules.js';
import type { AppLogEntry, AppLogIssue, AppLogParam } from './types.js';

const NAME_CHARS = /^[A-Za-z0-9_]+$/;
const STARTS_WITH_LETTER = /^[A-Za-z]/;

/** Adds each entry's issues against the GA4 / Firebase limits, in stream order (the 500-name and 25-property limits count). */
export function validateEntries(entries: AppLogEntry[]): void {
  const validator = new StreamValidator();
  for (const entry of entries) entry.issues.push(...validator.issuesOf(entry));
}

/**
 * Validates entries one by one in stream order, keeping what the limits over the whole stream need
 * (the distinct event names and user properties so far): a live stream (lib/tools/applog/live.ts)
 * is validated as it arrives instead of once at its end.
 */
export class StreamValidator {
  private readonly eventNames = new Set<string>();
  private readonly userPropertyNames = new Set<string>();

  /**
   * The issues of the next entry. With `commit` false the names it adds are not kept: a look at an
   * entry that later stages of the SDK may still change, validated for good later.
   */
  issuesOf(entry: AppLogEntry, commit = true): AppLogIssue[] {
    const issues: AppLogIssue[] = [];
    if (entry.kind === 'event' || entry.kind === 'screen' || entry.kind === 'error') {
      if (entry.kind !== 'error' || entry.params.length) issues.push(...firebaseErrors(entry.params));
      if (entry.kind === 'error') return issues;
      issues.push(...validateEvent(entry));
      if (isAppOrigin(entry.origin) && entry.shortName === null && !this.eventNames.has(entry.name)) {
        const count = this.eventNames.size + 1;
        if (commit) this.eventNames.add(entry.name);
        if (count > APP_LIMITS.distinctEventNames) {
          issues.push({
            code: 'too_many_event_names',
            severity: 'error',
            message: `"${entry.name}" is distinct event name number ${count}; an app instance may log at most ${APP_LIMITS.distinctEventNames} (Firebase error 8: the event is dropped).`,
          });
        }
      }
    } else if (entry.kind === 'user_property' && entry.shortName === null && !entry.name.startsWith('_')) {
      issues.push(...validateUserProperty(entry.name, entry.value ?? null));
      if (entry.value !== null && !this.userPropertyNames.has(entry.name)) {
        const count = this.userPropertyNames.size + 1;
        if (commit) this.userPropertyNames.add(entry.name);
        if (count > APP_LIMITS.userProperties) {
          issues.push({
            code: 'too_many_user_properties',
            severity: 'error',
            message: `"${entry.name}" is user property number ${count}; at most ${APP_LIMITS.userProperties} are allowed (Firebase error 9: the change is ignored).`,
          });
        }
      }
    }
    return issues;
  }
}

/** Issues of one event's name and parameters. SDK-named events and parameters (with a short name) are Firebase's own and exempt. */
export function validateEvent(event: Pick<AppLogEntry, 'name' | 'shortName' | 'origin' | 'params' | 'items'>): AppLogIssue[] {
  const issues: AppLogIssue[] = [];
  const { name } = event;
  // Events logged by the SDK itself or by another Google SDK (`origin=auto`, `am`, `fcm` …) may use
  // reserved names; only the app's own events follow the app's rules.
  if (isAppOrigin(event.origin) && event.shortName === null) {
    if (name.length > APP_LIMITS.eventNameLength) {
      issues.push({
        code: 'event_name_too_long',
        severity: 'error',
        message: `Event name is ${name.length} characters long; the limit is ${APP_LIMITS.eventNameLength}.`,
      });
    }
    if (!STARTS_WITH_LETTER.test(name)) {
      issues.push({ code: 'event_name_invalid_start', severity: 'error', message: 'Event name must start with a letter.' });
    }
    if (!NAME_CHARS.test(name)) {
      issues.push({
        code: 'event_name_invalid_characters',
        severity: 'error',
        message: 'Event name may contain only letters, digits and underscores.',
      });
    }
    if (event.origin === 'app' && RESERVED_EVENT_NAMES.has(name)) {
      issues.push({ code: 'event_name_reserved', severity: 'error', message: `"${name}" is a reserved event name; apps cannot log it.` });
    }
    const prefix = hasReservedPrefix(name);
    if (prefix) {
      issues.push({ code: 'event_name_reserved_prefix', severity: 'error', message: `Event names may not start with "${prefix}".` });
    }
  }
  const custom = event.params.filter((param) => !isSdkName(param.name, param.shortName));
  const customCount = custom.length + (event.items.length ? 1 : 0);
  if (customCount > APP_LIMITS.paramsPerEvent) {
    issues.push({
      code: 'too_many_params',
      severity: 'error',
      message: `The event has ${customCount} parameters; at most ${APP_LIMITS.paramsPerEvent} are kept (Firebase error 5).`,
    });
  }
  for (const param of custom) issues.push(...validateParam(param, 'param'));
  if (event.items.length > APP_LIMITS.itemsPerEvent) {
    issues.push({
      code: 'too_many_items',
      severity: 'warning',
      message: `The event has ${event.items.length} items; GA4 keeps at most ${APP_LIMITS.itemsPerEvent}.`,
    });
  }
  event.items.forEach((item, index) => {
    for (const param of item) {
      if (param.value !== null && param.value.length > APP_LIMITS.paramValueLength) {
        issues.push({
          code: 'item_param_value_too_long',
          severity: 'error',
          subject: `items[${index}].${param.name}`,
          message: `Item ${index + 1}: "${param.name}" is ${param.value.length} characters long; the limit is ${APP_LIMITS.paramValueLength}.`,
        });
      }
    }
  });
  return issues;
}

function validateParam(param: AppLogParam, kind: 'param'): AppLogIssue[] {
  const issues: AppLogIssue[] = [];
  const { name } = param;
  if (name.length > APP_LIMITS.paramNameLength) {
    issues.push({
      code: `${kind}_name_too_long`,
      severity: 'error',
      subject: name,
      message: `Parameter name "${name}" is ${name.length} characters long; the limit is ${APP_LIMITS.paramNameLength}.`,
    });
  }
  if (!STARTS_WITH_LETTER.test(name) || !NAME_CHARS.test(name)) {
    issues.push({
      code: `${kind}_name_invalid`,
      severity: 'error',
      subject: name,
      message: `Parameter name "${name}" must start with a letter and contain only letters, digits and underscores.`,
    });
  }
  const prefix = hasReservedPrefix(name);
  if (prefix) {
    issues.push({
      code: `${kind}_name_reserved_prefix`,
      severity: 'error',
      subject: name,
      message: `Parameter name "${name}" uses the reserved prefix "${prefix}" (Firebase error 14).`,
    });
  }
  if (param.value !== null && param.value.length > APP_LIMITS.paramValueLength) {
    issues.push({
      code: 'param_value_too_long',
      severity: 'error',
      subject: name,
      message: `Value of "${name}" is ${param.value.length} characters long; the limit is ${APP_LIMITS.paramValueLength} (Firebase error 4: the parameter is dropped).`,
    });
  }
  return issues;
}

export function validateUserProperty(name: string, value: string | null): AppLogIssue[] {
  const issues: AppLogIssue[] = [];
  if (name.length > APP_LIMITS.userPropertyNameLength) {
    issues.push({
      code: 'user_property_name_too_long',
      severity: 'error',
      subject: name,
      message: `User property name is ${name.length} characters long; the limit is ${APP_LIMITS.userPropertyNameLength}.`,
    });
  }
  if (!STARTS_WITH_LETTER.test(name) || !NAME_CHARS.test(name)) {
    issues.push({
      code: 'user_property_name_invalid',
      severity: 'error',
      subject: name,
      message: 'User property name must start with a letter and contain only letters, digits and underscores.',
    });
  }
  const prefix = hasReservedPrefix(name);
  if (RESERVED_USER_PROPERTY_NAMES.has(name) || prefix) {
    issues.push({
      code: 'user_property_name_reserved',
      severity: 'error',
      subject: name,
      message: prefix
        ? `User property names may not start with "${prefix}" (Firebase error 15).`
        : `"${name}" is a reserved user property name (Firebase error 15).`,
    });
  }
  if (value !== null && value.length > APP_LIMITS.userPropertyValueLength) {
    issues.push({
      code: 'user_property_value_too_long',
      severity: 'error',
      subject: name,
      message: `User property value is ${value.length} characters long; the limit is ${APP_LIMITS.userPropertyValueLength} (Firebase error 7: the change is ignored).`,
    });
  }
  return issues;
}

/** Firebase's own verdicts carried in an event: `_err` (firebase_error) with `_ev` (firebase_error_value). */
function firebaseErrors(params: AppLogParam[]): AppLogIssue[] {
  const error = params.find((param) => param.shortName === '_err' || param.name === 'firebase_error' || param.name === 'ga_error');
  if (!error || error.value === null) return [];
  const code = Number(error.value);
  const subject =
    params.find((param) => param.shortName === '_ev' || param.name === 'firebase_error_value' || param.name === 'ga_error_value')?.value ??
    undefined;
  const meaning = FIREBASE_ERROR_CODES[code] ?? 'undocumented error code';
  return [
    {
      code: 'firebase_error_param',
      severity: 'error',
      message: `Firebase error ${error.value}: ${meaning}${subject ? ` (${subject})` : ''}.`,
      ...(subject ? { subject } : {}),
    },
  ];
}
