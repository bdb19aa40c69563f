import {
  LINKEDIN_LABELS,
  pathLabel,
  PINTEREST_LABELS,
  REDDIT_LABELS,
  SNAPCHAT_LABELS,
  TIKTOK_LABELS,
  UET_LABELS,
  X_LABELS,
} from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';
import type { ConsentState, DecodedParam, Vendor } from '../types.js';

/**
 * The ad pixels analytics engineers debug next to Google's tags. Each is recognised by its
 * collector's host and path (the requests the vendor's own tag sends, as seen in browser captures):
 *
 * | Vendor | Request | Event | Id |
 * |---|---|---|---|
 * | TikTok | POST analytics.tiktok.com/api/v2/pixel (also /api/v1/track, /api/v2/pixel/act), JSON body | `event` | `context.pixel.code` |
 * | LinkedIn Insight | px.ads.linkedin.com/collect?pid=…&conversionId=… (also /wa/) | conversionId, else page view | `pid` |
 * | Microsoft UET | bat.bing.com/action/0?ti=…&evt=pageLoad / custom&ea=… | `evt`, custom: `ea` | `ti` |
 * | Pinterest | ct.pinterest.com/v3/?tid=…&event=…&ed={…}&pd={…}&ad={…} | `event` | `tid` |
 * | Snap | POST tr.snapchat.com/p (form body pid=…&ev=PAGE_VIEW…) | `ev` | `pid` |
 * | Reddit | alb.reddit.com/rp.gif?id=…&event=… (or POST /rp with a form body) | `event`, Custom: `m.customEventName` | `id` |
 * | X | analytics.twitter.com/1/i/adsct?txn_id=…&event={…} (also /i/adsct with `events=[["pageview",…]]`, analytics.x.com, the POST form /i/adsctp) | `events[0][0]`, else event | `txn_id` |
 *
 * X's tag sends every event twice, to analytics.twitter.com (or analytics.x.com) and to t.co (its
 * cookie-matching mirror), and LinkedIn's to px.ads.linkedin.com and px4.ads.linkedin.com (with an
 * `e_ipv6` added): only the first of each pair is a hit here, as in tag debuggers, so an event is
 * not counted twice. JSON values (TikTok's body, Pinterest's `ed`/`pd`/`ad`, X's `event`) are flattened
 * into one parameter per leaf (`context.page.url`, `ed[line_items][0][product_id]`).
 */

const MAX_FLAT_PARAMS = 300;

function tryJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (trimmed[0] !== '{' && trimmed[0] !== '[') return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/** Leaves of a JSON value as [path, text] pairs: `a.b.c` (dots) or `a[b][0]` (brackets). */
function flatten(value: unknown, prefix: string, style: 'dot' | 'bracket', out: Pairs, depth = 0) {
  if (out.length >= MAX_FLAT_PARAMS) return;
  if (value !== null && typeof value === 'object' && depth < 6) {
    const entries = Array.isArray(value) ? value.map((each, index) => [String(index), each] as const) : Object.entries(value);
    if (entries.length === 0) {
      out.push([prefix, Array.isArray(value) ? '[]' : '{}']);
      return;
    }
    for (const [key, child] of entries) {
      const path = !prefix ? key : style === 'dot' ? `${prefix}.${key}` : `${prefix}[${key}]`;
      flatten(child, path, style, out, depth + 1);
    }
    return;
  }
  out.push([prefix, value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)]);
}

/** Query pairs plus a URL-encoded form body (or the pairs the HAR exporter already parsed). */
function formPairs(request: CapturedRequest, queryPairs: Pairs): Pairs {
  if (request.bodyParams?.length) return [...queryPairs, ...request.bodyParams];
  if (request.body && !/^\s*[[{]/.test(request.body)) return [...queryPairs, ...parsePairs(request.body.trim())];
  return queryPairs;
}

function decodedUrl(text: string | undefined): string | null {
  if (!text) return null;
  if (!/^https?%3A/i.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface PixelFields {
  vendor: Vendor;
  type: string;
  accountId: string | null;
  page: string | null;
  referrer?: string | null;
  title?: string | null;
  clientId?: string | null;
  params: DecodedParam[];
  consent?: ConsentState | null;
}

function draft(request: CapturedRequest, fields: PixelFields): HitDraft[] {
  return [
    {
      ...baseOf(request),
      batch: null,
      vendor: fields.vendor,
      type: fields.type || '(no event)',
      accountId: fields.accountId || null,
      page: fields.page ?? request.referer,
      referrer: fields.referrer ?? null,
      title: fields.title ?? null,
      clientId: fields.clientId || null,
      params: fields.params,
      items: [],
      consent: fields.consent ?? null,
      body: request.body,
    },
  ];
}

function named(pairs: Pairs, label: (key: string) => string): DecodedParam[] {
  return pairs.map(([key, value]) => ({ key, name: label(key), value }));
}

const tiktokLabel = pathLabel(TIKTOK_LABELS);
const linkedinLabel = pathLabel(LINKEDIN_LABELS);
const uetLabel = pathLabel(UET_LABELS);
const snapchatLabel = pathLabel(SNAPCHAT_LABELS);
const redditLabel = pathLabel(REDDIT_LABELS);
const xLabel = pathLabel(X_LABELS);

function pinterestLabel(key: string): string {
  const known = PINTEREST_LABELS[key];
  if (known) return known;
  const item = /^ed\[line_items\]\[(\d+)\]\[(.+)\]$/.exec(key);
  if (item) return `Item ${Number(item[1]) + 1} ${item[2]!.replace(/^product_/, '').replace(/_/g, ' ')}`;
  return key;
}

function tiktok(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const json = tryJson(request.body);
  const pairs: Pairs = [...queryPairs];
  if (json && typeof json === 'object') flatten(json, '', 'dot', pairs);
  else pairs.push(...formPairs(request, []));
  const value = (key: string) => lastValue(pairs, key);
  if (value('event') === undefined && value('context.pixel.code') === undefined) return null;
  return draft(request, {
    vendor: 'tiktok',
    type: value('event') ?? '',
    accountId: value('context.pixel.code') ?? value('pixel_code') ?? null,
    page: decodedUrl(value('context.page.url')),
    referrer: decodedUrl(value('context.page.referrer')),
    clientId: value('context.user.anonymous_id') ?? null,
    params: named(pairs, tiktokLabel),
  });
}

function linkedin(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  if (value('pid') === undefined) return null;
  const conversion = value('conversionId');
  return draft(request, {
    vendor: 'linkedin',
    type: conversion ? `conversion ${conversion}` : 'page view',
    accountId: value('pid') ?? null,
    page: value('url') ?? null,
    clientId: value('li_fat_id') ?? null,
    params: named(pairs, linkedinLabel),
  });
}

function uet(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  if (value('ti') === undefined) return null;
  const evt = value('evt') ?? '';
  const asc = value('asc');
  const consent: ConsentState | null =
    asc === 'G' || asc === 'D'
      ? {
          source: 'uet',
          signals: [{ type: 'ad_storage', state: asc === 'G' ? 'granted' : 'denied', code: asc }],
          text: `UET consent mode: ad_storage ${asc === 'G' ? 'granted' : 'denied'} (asc=${asc})`,
        }
      : null;
  return draft(request, {
    vendor: 'microsoft',
    type: evt === 'custom' ? (value('ea') ?? value('en') ?? 'custom') : evt,
    accountId: value('ti') ?? null,
    page: value('p') ?? null,
    referrer: value('r') || null,
    title: value('tl') ?? null,
    clientId: value('vid') ?? null,
    params: named(pairs, uetLabel),
    consent,
  });
}

function pinterest(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const raw = formPairs(request, queryPairs);
  const pairs: Pairs = [];
  for (const [key, val] of raw) {
    pairs.push([key, val]);
    if (key === 'ed' || key === 'pd' || key === 'ad') {
      const json = tryJson(val);
      if (json && typeof json === 'object') flatten(json, key, 'bracket', pairs);
    }
  }
  const value = (key: string) => lastValue(pairs, key);
  if (value('tid') === undefined) return null;
  return draft(request, {
    vendor: 'pinterest',
    type: value('event') ?? '',
    accountId: value('tid') ?? null,
    page: value('ad[loc]') ?? null,
    referrer: value('ad[ref]') || null,
    params: named(pairs, pinterestLabel),
  });
}

function snapchat(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  if (value('pid') === undefined && value('ev') === undefined) return null;
  return draft(request, {
    vendor: 'snapchat',
    type: value('ev') ?? '',
    accountId: value('pid') ?? null,
    page: value('pl') ?? null,
    referrer: value('rf') || null,
    clientId: value('u_c1') ?? null,
    params: named(pairs, snapchatLabel),
  });
}

function reddit(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  if (value('id') === undefined && value('event') === undefined) return null;
  const event = value('event') ?? '';
  const custom = value('m.customEventName');
  return draft(request, {
    vendor: 'reddit',
    type: event === 'Custom' && custom ? custom : event,
    accountId: value('id') ?? null,
    page: null,
    clientId: value('uuid') ?? null,
    params: named(pairs, redditLabel),
  });
}

function xEvent(pairs: Pairs): string {
  const legacy = tryJson(lastValue(pairs, 'events'));
  if (Array.isArray(legacy) && Array.isArray(legacy[0]) && typeof legacy[0][0] === 'string') return legacy[0][0];
  const event = tryJson(lastValue(pairs, 'event'));
  if (event && typeof event === 'object' && Object.keys(event).length > 0) return 'event';
  return 'page view';
}

function x(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const raw = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(raw, key);
  if (value('txn_id') === undefined) return null;
  const pairs: Pairs = [];
  for (const [key, val] of raw) {
    pairs.push([key, val]);
    if (key === 'event') {
      const json = tryJson(val);
      if (json && typeof json === 'object' && Object.keys(json).length > 0) flatten(json, 'event', 'dot', pairs);
    }
  }
  return draft(request, {
    vendor: 'x',
    type: xEvent(raw),
    accountId: value('txn_id') ?? null,
    page: value('tw_document_href') ?? null,
    clientId: value('twclid') ?? null,
    params: named(pairs, xLabel),
  });
}

type PixelDecoder = (request: CapturedRequest, queryPairs: Pairs) => HitDraft[] | null;

const PIXELS: Array<{ host: RegExp; path: RegExp; decode: PixelDecoder }> = [
  { host: /(^|\.)analytics(-[a-z0-9]+)?\.tiktok\.com$/, path: /^\/api\/v\d\/(?:pixel(?:\/act|\/track)?|track)\/?$/, decode: tiktok },
  { host: /^px\.ads\.linkedin\.com$/, path: /^\/(?:collect|wa)\/?$/, decode: linkedin },
  { host: /^bat\.bing\.(?:com|net)$/, path: /^\/action\/\d+\/?$/, decode: uet },
  { host: /^ct\.pinterest\.com$/, path: /^\/v3\/?$/, decode: pinterest },
  { host: /^tr(-shadow)?\.snapchat\.com$/, path: /^\/(?:gateway\/)?p\/?$/, decode: snapchat },
  { host: /^alb\.reddit\.com$/, path: /^\/rp(?:\.gif)?\/?$/, decode: reddit },
  { host: /^analytics\.(?:twitter|x)\.com$/, path: /^\/(?:1\/)?i\/adsctp?\/?$/, decode: x },
];

/** Decodes a TikTok, LinkedIn, Microsoft UET, Pinterest, Snap, Reddit or X pixel request. */
export function decodePixel(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  for (const pixel of PIXELS) {
    if (pixel.host.test(request.host) && pixel.path.test(request.path)) return pixel.decode(request, queryPairs);
  }
  return null;
}

/** Hosts of the pixels above, for the analyser's one-regex pre-check of every request URL. */
export const PIXEL_CANDIDATE =
  /tiktok\.com\/api\/|ads\.linkedin\.com\/|bat\.bing\.|ct\.pinterest\.com\/v3|snapchat\.com\/|alb\.reddit\.com\/rp|\/i\/adsct/;
