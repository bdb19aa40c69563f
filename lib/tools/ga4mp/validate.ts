import { paramValueLimit } from '../ga4-collection-rules.js';
import {
  APP_INSTANCE_ID_PATTERN,
  BODY_FIELDS,
  CONSENT_VALUES,
  FIREBASE_APP_ID_PATTERN,
  GA4MP_LIMITS,
  ISO_4217_CURRENCIES,
  MEASUREMENT_ID_PATTERN,
  NAME_PATTERN,
  RESERVED_EVENT_NAMES,
  RESERVED_NAME_PREFIXES,
  RESERVED_PARAM_NAMES,
  RECOMMENDED_EVENT_REQUIRED_PARAMS,
  RESERVED_USER_PROPERTY_NAMES,
  SHA256_HEX_PATTERN,
  STANDARD_ITEM_PARAMS,
  STRICT_CLIENT_ID_PATTERN,
  VALIDATION_BEHAVIORS,
} from './limits.js';
import type { ValidationCode, ValidationMessage, ValidationResponse } from './types.js';

export interface ValidateOptions {
  /** The current time (tests pin it); the timestamp window is measured from it. */
  now?: Date;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const reservedPrefixOf = (name: string) => RESERVED_NAME_PREFIXES.find((prefix) => name.startsWith(prefix));
/** Longer than `max` characters (code points, as GA4 counts them); the UTF-16 length is a cheap bound. */
const longerThan = (value: string, max: number) => value.length > max && [...value].length > max;
const encoder = new TextEncoder();
const describe = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

/**
 * GA4 parses the body into its protocol buffer before validating, so a field it does not know fails the
 * parse: `VALUE_INVALID`, "Unable to parse Measurement Protocol JSON payload. (events[0]) names: Cannot
 * find field." (the location in brackets, then the field). The fieldPath stays exact for the page.
 */
function unknownField(messages: Messages, fieldPath: string, location: string, key: string): void {
  const where = location ? `(${location}) ` : '';
  messages.add(fieldPath, 'VALUE_INVALID', `Unable to parse Measurement Protocol JSON payload. ${where}${key}: Cannot find field.`);
}

const CONSENT_FIELDS = new Set(['ad_user_data', 'ad_personalization']);
const USER_DATA_FIELDS = new Set(['sha256_email_address', 'sha256_phone_number', 'address']);
const ADDRESS_FIELDS = new Set(['sha256_first_name', 'sha256_last_name', 'sha256_street', 'city', 'region', 'postal_code', 'country']);

/**
 * Reports every field of the body GA4's schema does not have (GA4 itself stops at the first; listing
 * them all spares a round trip per typo). Returns whether there was one.
 */
function findUnknownFields(body: Json, messages: Messages): boolean {
  const before = messages.list.length;
  // Paths are built only for an object that has an unknown key: a valid payload allocates nothing here.
  const check = (object: unknown, known: ReadonlySet<string>, fieldPath: string | null, location: string | null, index = -1) => {
    if (!isObject(object)) return;
    for (const key in object) {
      if (known.has(key)) continue;
      const at = index < 0 ? (fieldPath ?? '') : `${fieldPath}[${index}]`;
      unknownField(messages, at ? `${at}.${key}` : key, index < 0 ? (location ?? '') : `${location}[${index}]`, key);
    }
  };
  check(body, BODY_FIELDS, null, null);
  check(body.consent, CONSENT_FIELDS, 'consent', 'consent');
  const userData = body.user_data;
  if (isObject(userData)) {
    check(userData, USER_DATA_FIELDS, 'user_data', 'user_data');
    const address = userData.address;
    if (Array.isArray(address)) {
      for (let index = 0; index < address.length; index++)
        check(address[index], ADDRESS_FIELDS, 'user_data.address', 'user_data.address', index);
    } else check(address, ADDRESS_FIELDS, 'user_data.address', 'user_data.address');
  }
  // The two loops a large payload runs 25 times each compare strings directly (cheaper than a Set here).
  const properties = body.user_properties;
  if (isObject(properties))
    for (const name in properties) {
      const property = properties[name];
      if (isObject(property))
        for (const key in property)
          if (key !== 'value' && key !== 'timestamp_micros')
            unknownField(messages, `user_properties.${name}.${key}`, `user_properties[${name}]`, key);
    }
  const events = body.events;
  if (Array.isArray(events))
    for (let index = 0; index < events.length; index++) {
      const event: unknown = events[index];
      if (isObject(event))
        for (const key in event)
          if (key !== 'name' && key !== 'params' && key !== 'timestamp_micros')
            unknownField(messages, `events[${index}].${key}`, `events[${index}]`, key);
    }
  return messages.list.length > before;
}

/** Whether the body asks for GA4's strict checks (`validation_behavior: ENFORCE_RECOMMENDATIONS`). */
const isStrict = (body: Json) => body.validation_behavior === 'ENFORCE_RECOMMENDATIONS';

/** Collects messages in order; one instance per validation run. */
class Messages {
  readonly list: ValidationMessage[] = [];
  add(fieldPath: string, validationCode: ValidationCode, description: string): void {
    this.list.push({ fieldPath, description, validationCode });
  }
}

/**
 * Validates a Measurement Protocol request the way GA4's validation server does (`/debug/mp/collect`),
 * with the documented limits, and answers in the server's shape. It never throws: any JSON value is
 * accepted and whatever is wrong is reported. An empty `validationMessages` list means valid.
 */
export function validateGa4mpRequest(query: unknown, body: unknown, options: ValidateOptions = {}): ValidationResponse {
  const now = options.now ?? new Date();
  const messages = new Messages();
  const stream = validateQuery(query, messages);
  validateBody(body, stream, now, messages);
  return { validationMessages: messages.list };
}

function validateQuery(query: unknown, messages: Messages): 'web' | 'app' {
  if (!isObject(query)) {
    messages.add(
      'query',
      'VALUE_REQUIRED',
      'The request URL must carry api_secret and measurement_id (web stream) or firebase_app_id (app stream).',
    );
    return 'web';
  }
  const hasMeasurement = query.measurement_id !== undefined;
  const hasFirebase = query.firebase_app_id !== undefined;
  const stream = hasFirebase && !hasMeasurement ? 'app' : 'web';
  if (hasMeasurement && hasFirebase) {
    messages.add(
      'query.firebase_app_id',
      'VALUE_INVALID',
      'Specify either measurement_id (web stream) or firebase_app_id (app stream), not both.',
    );
  }
  if (stream === 'web') {
    const id = query.measurement_id;
    if (id === undefined || id === '') {
      messages.add(
        'query.measurement_id',
        'VALUE_REQUIRED',
        'Measurement ID is required for a web stream. Find it in Admin > Data streams > your stream.',
      );
    } else if (typeof id !== 'string' || !MEASUREMENT_ID_PATTERN.test(id)) {
      messages.add('query.measurement_id', 'VALUE_INVALID', `Measurement ID [${describe(id)}] is invalid. It looks like G-XXXXXXXXXX.`);
    }
  } else {
    const id = query.firebase_app_id;
    if (id === '') {
      messages.add('query.firebase_app_id', 'VALUE_REQUIRED', 'Firebase app ID is required for an app stream.');
    } else if (typeof id !== 'string' || !FIREBASE_APP_ID_PATTERN.test(id)) {
      messages.add(
        'query.firebase_app_id',
        'VALUE_INVALID',
        `Firebase app ID [${describe(id)}] is invalid. It looks like 1:1234567890:android:0123456789abcdef.`,
      );
    }
  }
  const secret = query.api_secret;
  if (secret === undefined || secret === '') {
    messages.add(
      'query.api_secret',
      'VALUE_REQUIRED',
      'API secret is required. Create one in Admin > Data streams > your stream > Measurement Protocol API secrets.',
    );
  } else if (typeof secret !== 'string' || /\s/.test(secret)) {
    messages.add('query.api_secret', 'VALUE_INVALID', 'API secret is invalid: it must be a string without spaces.');
  }
  for (const key of Object.keys(query)) {
    if (!['measurement_id', 'firebase_app_id', 'api_secret'].includes(key)) {
      messages.add(`query.${key}`, 'NAME_INVALID', `Query parameter [${key}] is not part of the Measurement Protocol.`);
    }
  }
  return stream;
}

function validateBody(body: unknown, stream: 'web' | 'app', now: Date, messages: Messages): void {
  if (!isObject(body)) {
    messages.add('body', 'VALUE_INVALID', 'The request body must be a JSON object.');
    return;
  }
  // A UTF-8 byte is at most three per UTF-16 unit: short bodies skip the encoding.
  const json = JSON.stringify(body);
  const bytes = json.length * 3 < GA4MP_LIMITS.maxBodyBytes ? json.length : encoder.encode(json).length;
  if (bytes >= GA4MP_LIMITS.maxBodyBytes) {
    messages.add('body', 'VALUE_OUT_OF_BOUNDS', `The post body must be smaller than 130kB; it is ${bytes} bytes.`);
  }
  // GA4 parses before it validates: a payload with a field it does not know gets only the parse errors.
  if (findUnknownFields(body, messages)) return;
  const strict = isStrict(body);
  validateIdentifiers(body, stream, strict, messages);
  if (body.user_id !== undefined) {
    if (typeof body.user_id !== 'string' || body.user_id === '') {
      messages.add('user_id', 'VALUE_INVALID', 'user_id must be a non-empty string.');
    } else if (longerThan(body.user_id, GA4MP_LIMITS.userIdLength)) {
      messages.add('user_id', 'VALUE_OUT_OF_BOUNDS', `user_id is longer than ${GA4MP_LIMITS.userIdLength} characters.`);
    }
  }
  if (body.timestamp_micros !== undefined) validateTimestamp(body.timestamp_micros, 'timestamp_micros', now, messages);
  if (body.non_personalized_ads !== undefined && typeof body.non_personalized_ads !== 'boolean') {
    messages.add('non_personalized_ads', 'VALUE_INVALID', 'non_personalized_ads must be true or false.');
  }
  if (body.validation_behavior !== undefined && !(VALIDATION_BEHAVIORS as readonly unknown[]).includes(body.validation_behavior)) {
    messages.add(
      'validation_behavior',
      'VALUE_INVALID',
      `validation_behavior [${describe(body.validation_behavior)}] must be RELAXED or ENFORCE_RECOMMENDATIONS.`,
    );
  }
  if (body.consent !== undefined) validateConsent(body.consent, messages);
  if (body.user_properties !== undefined) validateUserProperties(body.user_properties, now, messages);
  if (body.user_data !== undefined) validateUserData(body.user_data, messages);
  validateEvents(body.events, now, strict, messages);
}

function validateIdentifiers(body: Json, stream: 'web' | 'app', strict: boolean, messages: Messages): void {
  if (stream === 'web') {
    if (body.client_id === undefined || body.client_id === '') {
      messages.add('client_id', 'VALUE_REQUIRED', 'Measurement requires a client_id.');
    } else if (typeof body.client_id !== 'string') {
      messages.add('client_id', 'VALUE_INVALID', 'client_id must be a string, such as the value gtag.js returns for get client_id.');
    } else if (strict && !STRICT_CLIENT_ID_PATTERN.test(body.client_id)) {
      messages.add(
        'client_id',
        'VALUE_INVALID',
        `client_id [${body.client_id}] has invalid format. It should be in <number>.<number> format.`,
      );
    }
    if (body.app_instance_id !== undefined) {
      messages.add(
        'app_instance_id',
        'VALUE_INVALID',
        'app_instance_id is for app streams (firebase_app_id); a web stream uses client_id.',
      );
    }
  } else {
    const id = body.app_instance_id;
    if (id === undefined || id === '') {
      messages.add(
        'app_instance_id',
        'VALUE_REQUIRED',
        'Measurement must have an app_instance_id when a firebase_app_id is given (app stream).',
      );
    } else if (typeof id !== 'string' || !APP_INSTANCE_ID_PATTERN.test(id)) {
      messages.add(
        'app_instance_id',
        'VALUE_INVALID',
        `app_instance_id [${describe(id)}] is invalid: it must be 32 hexadecimal characters, as the Firebase SDK reports it.`,
      );
    }
    if (body.client_id !== undefined) {
      messages.add('client_id', 'VALUE_INVALID', 'client_id is for web streams (measurement_id); an app stream uses app_instance_id.');
    }
  }
}

function validateTimestamp(value: unknown, path: string, now: Date, messages: Messages): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    messages.add(path, 'VALUE_INVALID', `${path} must be a whole number of microseconds since the Unix epoch.`);
    return;
  }
  const nowMicros = now.getTime() * 1000;
  if (value > nowMicros) {
    messages.add(path, 'VALUE_INVALID', `${path} [${value}] is in the future. Timestamps may only record events that already happened.`);
  } else if (nowMicros - value > GA4MP_LIMITS.maxBackdateHours * 3600 * 1_000_000) {
    messages.add(path, 'VALUE_OUT_OF_BOUNDS', `${path} [${value}] is more than ${GA4MP_LIMITS.maxBackdateHours} hours in the past.`);
  }
}

function validateConsent(consent: unknown, messages: Messages): void {
  if (!isObject(consent)) {
    messages.add('consent', 'VALUE_INVALID', 'consent must be an object with ad_user_data and/or ad_personalization.');
    return;
  }
  for (const [key, value] of Object.entries(consent)) {
    // Other keys never get here: findUnknownFields reported them and validation stopped.
    if (!CONSENT_VALUES.includes(value as string)) {
      messages.add(`consent.${key}`, 'VALUE_INVALID', `consent.${key} [${describe(value)}] must be GRANTED or DENIED.`);
    }
  }
}

function validateUserProperties(properties: unknown, now: Date, messages: Messages): void {
  if (!isObject(properties)) {
    messages.add('user_properties', 'VALUE_INVALID', 'user_properties must be an object of { "name": { "value": … } }.');
    return;
  }
  const names = Object.keys(properties);
  if (names.length > GA4MP_LIMITS.userProperties) {
    messages.add(
      'user_properties',
      'EXCEEDED_MAX_ENTITIES',
      `A request can have at most ${GA4MP_LIMITS.userProperties} user properties; it has ${names.length}.`,
    );
  }
  for (const name of names) {
    const path = `user_properties.${name}`;
    const prefix = reservedPrefixOf(name);
    if (RESERVED_USER_PROPERTY_NAMES.has(name)) {
      messages.add(path, 'NAME_RESERVED', `User property [${name}] has a reserved name.`);
    } else if (prefix) {
      messages.add(path, 'NAME_RESERVED', `User property [${name}] uses the reserved prefix [${prefix}].`);
    } else if (!NAME_PATTERN.test(name)) {
      messages.add(
        path,
        'NAME_INVALID',
        `User property has invalid name [${name}]. Names must start with an alphabetic character and contain only alphanumeric characters and underscores.`,
      );
    }
    if (name.length > GA4MP_LIMITS.userPropertyNameLength) {
      messages.add(path, 'NAME_INVALID', `User property name [${name}] is longer than ${GA4MP_LIMITS.userPropertyNameLength} characters.`);
    }
    const property = properties[name];
    if (!isObject(property) || !('value' in property)) {
      messages.add(path, 'VALUE_REQUIRED', `User property [${name}] must be an object with a value.`);
      continue;
    }
    const value = property.value;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      messages.add(`${path}.value`, 'VALUE_INVALID', `User property [${name}] value must be a string, a number or null.`);
    } else if (typeof value === 'string' && longerThan(value, GA4MP_LIMITS.userPropertyValueLength)) {
      messages.add(
        `${path}.value`,
        'VALUE_OUT_OF_BOUNDS',
        `User property [${name}] value is longer than ${GA4MP_LIMITS.userPropertyValueLength} characters.`,
      );
    }
    if (property.timestamp_micros !== undefined) validateTimestamp(property.timestamp_micros, `${path}.timestamp_micros`, now, messages);
  }
}

function validateHashList(value: unknown, path: string, label: string, messages: Messages): void {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > GA4MP_LIMITS.userDataValues) {
    messages.add(
      path,
      'EXCEEDED_MAX_ENTITIES',
      `${label}: at most ${GA4MP_LIMITS.userDataValues} values are allowed; there are ${list.length}.`,
    );
  }
  list.forEach((entry, index) => {
    if (typeof entry !== 'string' || !SHA256_HEX_PATTERN.test(entry)) {
      const at = Array.isArray(value) ? `${path}[${index}]` : path;
      messages.add(
        at,
        'VALUE_INVALID',
        `${label} must be the lower-case hex SHA-256 of the normalised value (64 characters), never the plain value.`,
      );
    }
  });
}

function validateUserData(userData: unknown, messages: Messages): void {
  if (!isObject(userData)) {
    messages.add('user_data', 'VALUE_INVALID', 'user_data must be an object.');
    return;
  }
  for (const [key, value] of Object.entries(userData)) {
    const path = `user_data.${key}`;
    if (key === 'sha256_email_address') validateHashList(value, path, 'sha256_email_address', messages);
    else if (key === 'sha256_phone_number') validateHashList(value, path, 'sha256_phone_number', messages);
    else if (key === 'address') validateAddresses(value, path, messages);
  }
}

function validateAddresses(value: unknown, path: string, messages: Messages): void {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > GA4MP_LIMITS.userDataValues) {
    messages.add(
      path,
      'EXCEEDED_MAX_ENTITIES',
      `address: at most ${GA4MP_LIMITS.userDataValues} addresses are allowed; there are ${list.length}.`,
    );
  }
  list.forEach((address, index) => {
    const at = Array.isArray(value) ? `${path}[${index}]` : path;
    if (!isObject(address)) {
      messages.add(at, 'VALUE_INVALID', 'Each address must be an object.');
      return;
    }
    for (const [key, field] of Object.entries(address)) {
      if (key === 'sha256_first_name' || key === 'sha256_last_name' || key === 'sha256_street') {
        if (typeof field !== 'string' || !SHA256_HEX_PATTERN.test(field)) {
          messages.add(
            `${at}.${key}`,
            'VALUE_INVALID',
            `${key} must be the lower-case hex SHA-256 of the normalised value (64 characters).`,
          );
        }
      } else if (key === 'country') {
        if (typeof field !== 'string' || !/^[A-Z]{2}$/.test(field))
          messages.add(`${at}.${key}`, 'VALUE_INVALID', 'country must be a two-letter ISO 3166-1 alpha-2 code, such as US.');
      } else if (key === 'city' || key === 'region' || key === 'postal_code') {
        if (typeof field !== 'string' || field === '')
          messages.add(`${at}.${key}`, 'VALUE_INVALID', `${key} must be a non-empty string (not hashed).`);
      }
    }
  });
}

function validateEvents(events: unknown, now: Date, strict: boolean, messages: Messages): void {
  if (events === undefined) {
    messages.add('events', 'VALUE_REQUIRED', 'A request must contain at least one event.');
    return;
  }
  if (!Array.isArray(events)) {
    messages.add('events', 'VALUE_INVALID', 'events must be an array of events.');
    return;
  }
  if (events.length === 0) {
    messages.add('events', 'VALUE_REQUIRED', 'A request must contain at least one event.');
  }
  if (events.length > GA4MP_LIMITS.eventsPerRequest) {
    messages.add(
      'events',
      'EXCEEDED_MAX_ENTITIES',
      `A request can have at most ${GA4MP_LIMITS.eventsPerRequest} events; it has ${events.length}.`,
    );
  }
  events.forEach((event, index) => validateEvent(event, index, now, strict, messages));
}

function validateEvent(event: unknown, index: number, now: Date, strict: boolean, messages: Messages): void {
  const path = `events[${index}]`;
  if (!isObject(event)) {
    messages.add(path, 'VALUE_INVALID', `Event at index: [${index}] must be an object with a name.`);
    return;
  }
  const name = event.name;
  if (name === undefined || name === '') {
    messages.add(`${path}.name`, 'VALUE_REQUIRED', `Event at index: [${index}] has no name.`);
  } else if (typeof name !== 'string') {
    messages.add(`${path}.name`, 'VALUE_INVALID', `Event at index: [${index}] has a name that is not a string.`);
  } else {
    // Every reserved prefix starts with f or g: most names skip the search.
    const first = name.charCodeAt(0);
    const prefix = first === 102 || first === 103 ? reservedPrefixOf(name) : undefined;
    if (RESERVED_EVENT_NAMES.has(name)) {
      messages.add(`${path}.name`, 'NAME_RESERVED', `Event at index: [${index}] has name [${name}] which is reserved.`);
    } else if (prefix) {
      messages.add(`${path}.name`, 'NAME_RESERVED', `Event at index: [${index}] has name [${name}] with the reserved prefix [${prefix}].`);
    } else if (!NAME_PATTERN.test(name)) {
      messages.add(`${path}.name`, 'NAME_INVALID', `Event at index: [${index}] has invalid name [${name}]. ${nameRule(name)}`);
    }
    if (name.length > GA4MP_LIMITS.eventNameLength) {
      messages.add(
        `${path}.name`,
        'NAME_INVALID',
        `Event at index: [${index}] has name [${name}] which is longer than ${GA4MP_LIMITS.eventNameLength} characters.`,
      );
    }
  }
  if (event.timestamp_micros !== undefined) validateTimestamp(event.timestamp_micros, `${path}.timestamp_micros`, now, messages);
  if (event.params === undefined) {
    if (strict && typeof name === 'string') validateRecommended(name, {}, index, path, messages);
    return;
  }
  if (!isObject(event.params)) {
    messages.add(`${path}.params`, 'VALUE_INVALID', `Event at index: [${index}] has params that are not an object.`);
    return;
  }
  const params = event.params;
  const count = Object.keys(params).length;
  if (count > GA4MP_LIMITS.paramsPerEvent) {
    messages.add(
      `${path}.params`,
      'EXCEEDED_MAX_ENTITIES',
      `Event at index: [${index}] has ${count} params; an event can have at most ${GA4MP_LIMITS.paramsPerEvent}.`,
    );
  }
  const owner = `Event at index: [${index}]`;
  for (const param in params) {
    const value = params[param];
    if (param === 'items') {
      validateItems(value, index, `${path}.params.items`, messages);
      continue;
    }
    validateParamName(param, owner, 'param', `${path}.params`, messages);
    validateParamValue(value, owner, param, paramValueLimit(param), `${path}.params`, messages);
    if (param === 'currency' && typeof value === 'string' && !ISO_4217_CURRENCIES.has(value)) {
      messages.add(
        `${path}.params.currency`,
        'VALUE_INVALID',
        `${owner} param [currency] has value [${value}], which is not an ISO 4217 currency code (three upper-case letters, such as USD).`,
      );
    }
  }
  if (strict && typeof name === 'string') validateRecommended(name, params, index, path, messages);
}

/**
 * ENFORCE_RECOMMENDATIONS: a recommended event needs its required parameters, and `currency` whenever
 * `value` is set (the events reference: "currency: required if you set value").
 */
function validateRecommended(name: string, params: Json, index: number, path: string, messages: Messages): void {
  const required = RECOMMENDED_EVENT_REQUIRED_PARAMS[name] ?? [];
  const missing = (param: string) => params[param] === undefined || params[param] === '' || params[param] === null;
  for (const param of required) {
    if (missing(param)) {
      messages.add(
        `${path}.params.${param}`,
        'VALUE_REQUIRED',
        `Event at index: [${index}] of type [${name}] is missing the required param [${param}].`,
      );
    }
  }
  if (!missing('value') && missing('currency')) {
    messages.add(
      `${path}.params.currency`,
      'VALUE_REQUIRED',
      `Event at index: [${index}] has param [value] but no [currency]; currency is required when value is set.`,
    );
  }
}

function nameRule(name: string): string {
  return /^[A-Za-z]/.test(name)
    ? 'Names may only contain alphanumeric characters and underscores.'
    : 'Names must start with an alphabetic character.';
}

/** Checks one parameter name; paths and descriptions are only built when something is wrong. */
function validateParamName(param: string, owner: string, kind: 'param' | 'item param', basePath: string, messages: Messages): void {
  if (
    param.length <= GA4MP_LIMITS.paramNameLength &&
    NAME_PATTERN.test(param) &&
    !RESERVED_PARAM_NAMES.has(param) &&
    !reservedPrefixOf(param)
  )
    return;
  const path = `${basePath}.${param}`;
  const prefix = reservedPrefixOf(param);
  if (RESERVED_PARAM_NAMES.has(param)) {
    messages.add(path, 'NAME_RESERVED', `${owner} has ${kind} [${param}] which is reserved.`);
  } else if (prefix) {
    messages.add(path, 'NAME_RESERVED', `${owner} has ${kind} [${param}] with the reserved prefix [${prefix}].`);
  } else if (!NAME_PATTERN.test(param)) {
    messages.add(path, 'NAME_INVALID', `${owner} has invalid ${kind} name [${param}]. ${nameRule(param)}`);
  }
  if (param.length > GA4MP_LIMITS.paramNameLength) {
    messages.add(
      path,
      'NAME_INVALID',
      `${owner} has ${kind} name [${param}] which is longer than ${GA4MP_LIMITS.paramNameLength} characters.`,
    );
  }
}

function validateParamValue(value: unknown, owner: string, param: string, maxLength: number, basePath: string, messages: Messages): void {
  if (typeof value === 'string') {
    if (longerThan(value, maxLength))
      messages.add(
        `${basePath}.${param}`,
        'VALUE_OUT_OF_BOUNDS',
        `${owner} param [${param}] has a value longer than ${maxLength} characters.`,
      );
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value))
      messages.add(`${basePath}.${param}`, 'VALUE_INVALID', `${owner} param [${param}] has a value that is not a finite number.`);
  } else if (typeof value !== 'boolean') {
    messages.add(
      `${basePath}.${param}`,
      'VALUE_INVALID',
      `${owner} param [${param}] must be a string, a number or a boolean${value === null ? ', not null' : ''}.`,
    );
  }
}

function validateItems(items: unknown, eventIndex: number, path: string, messages: Messages): void {
  if (!Array.isArray(items)) {
    messages.add(path, 'VALUE_INVALID', `Event at index: [${eventIndex}] has items that are not an array.`);
    return;
  }
  if (items.length === 0) {
    messages.add(
      path,
      'VALUE_REQUIRED',
      `Event at index: [${eventIndex}] has an empty items list; leave items out or give at least one item with an item_id or an item_name.`,
    );
  }
  if (items.length > GA4MP_LIMITS.itemsPerEvent) {
    messages.add(
      path,
      'EXCEEDED_MAX_ENTITIES',
      `Event at index: [${eventIndex}] has ${items.length} items; an event can have at most ${GA4MP_LIMITS.itemsPerEvent}.`,
    );
  }
  items.forEach((item, itemIndex) => {
    const itemPath = `${path}[${itemIndex}]`;
    const owner = `Item at index: [${itemIndex}] of event at index: [${eventIndex}]`;
    if (!isObject(item)) {
      messages.add(itemPath, 'VALUE_INVALID', `${owner} must be an object.`);
      return;
    }
    const hasId = typeof item.item_id === 'string' ? item.item_id !== '' : item.item_id !== undefined;
    const hasName = typeof item.item_name === 'string' ? item.item_name !== '' : item.item_name !== undefined;
    if (!hasId && !hasName) {
      messages.add(itemPath, 'VALUE_REQUIRED', `${owner} must have an item_id or an item_name.`);
    }
    const custom = Object.keys(item).filter((key) => !STANDARD_ITEM_PARAMS.has(key));
    if (custom.length > GA4MP_LIMITS.customItemParams) {
      messages.add(
        itemPath,
        'EXCEEDED_MAX_ENTITIES',
        `${owner} has ${custom.length} custom item params; an item can have at most ${GA4MP_LIMITS.customItemParams}.`,
      );
    }
    for (const param in item) {
      if (!STANDARD_ITEM_PARAMS.has(param)) validateParamName(param, owner, 'item param', itemPath, messages);
      validateParamValue(item[param], owner, param, GA4MP_LIMITS.paramValueLength, itemPath, messages);
    }
  });
}

/** Size of the JSON body as GA4 receives it, in bytes (UTF-8). */
export function bodyBytes(body: unknown): number {
  return encoder.encode(JSON.stringify(body) ?? '').length;
}
