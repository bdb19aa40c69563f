import type { HarEntry } from '../har/analyse.js';
import type { DataLayerRecord, NavigationRecord, RequestRecord, StatusRecord } from './records.js';

/** The answer a request got, as far as the capture knows (null: none yet). */
export type Answer = Pick<StatusRecord, 'status' | 'error'> | null;

const iso = (time: number) => new Date(Math.floor(time)).toISOString();

/**
 * The part of a HAR entry the analyser reads (analyse.ts `captureEntry`): start time, method, URL,
 * body and status. The live panels decode this; {@link harEntry} writes the same fields (and the
 * rest HAR 1.2 asks for), so a HAR export decodes into exactly the hits the panel showed.
 */
export function decodableEntry(request: RequestRecord, answer: Answer): HarEntry {
  return {
    startedDateTime: iso(request.time),
    request: {
      method: request.method,
      url: request.url,
      headers: [],
      ...(request.body ? { postData: postData(request) } : {}),
    },
    response: { status: answer?.status ?? 0 },
  };
}

function postData(request: RequestRecord) {
  const body = request.body!;
  return { mimeType: body.mimeType, text: body.text, ...(body.params ? { params: body.params } : {}) };
}

function queryString(url: string): Array<{ name: string; value: string }> {
  const q = url.indexOf('?');
  if (q === -1) return [];
  const hash = url.indexOf('#', q);
  return url
    .slice(q + 1, hash === -1 ? undefined : hash)
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      return eq === -1 ? { name: part, value: '' } : { name: part.slice(0, eq), value: part.slice(eq + 1) };
    });
}

/** One HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/) for a captured request. */
export function harEntry(request: RequestRecord, answer: Answer, pageref?: string) {
  const body = request.body;
  return {
    ...(pageref ? { pageref } : {}),
    startedDateTime: iso(request.time),
    time: -1,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: '',
      cookies: [],
      headers: [],
      queryString: queryString(request.url),
      ...(body ? { postData: postData(request) } : {}),
      headersSize: -1,
      bodySize: body ? new TextEncoder().encode(body.text).length : 0,
    },
    response: {
      status: answer?.status ?? 0,
      statusText: answer?.error ?? '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(answer?.error ? { _error: answer.error } : {}),
    },
    cache: {},
    timings: { send: -1, wait: -1, receive: -1 },
    _resourceType: request.resourceType,
    ...(request.initiator ? { _initiator: request.initiator } : {}),
  };
}

export interface HarExportInput {
  /** Requests in the order the panel lists their hits (by time, then capture order). */
  requests: RequestRecord[];
  answers: ReadonlyMap<string, Answer>;
  /** Page loads in time order. */
  pages: NavigationRecord[];
  dataLayer: DataLayerRecord[];
  creator: { name: string; version: string };
}

/**
 * A HAR 1.2 log of a capture: one page per page load (`pages`, each entry's `pageref`), the
 * analytics requests as entries, and the dataLayer pushes in a custom `_dataLayer` field (HAR allows
 * fields starting with an underscore; readers that do not know it skip it).
 */
export function buildHar({ requests, answers, pages, dataLayer, creator }: HarExportInput) {
  const pageIds = pages.map((page, index) => ({ id: `page_${index + 1}`, time: page.time, documentId: page.documentId }));
  // By the document that sent the request where the browser says (Chrome), else by time.
  const pageOf = (request: RequestRecord) => {
    const byDocument = request.documentId ? pageIds.find((page) => page.documentId === request.documentId) : undefined;
    if (byDocument) return byDocument.id;
    let found: string | undefined;
    for (const page of pageIds) {
      if (page.time > request.time) break;
      found = page.id;
    }
    return found;
  };
  return {
    log: {
      version: '1.2',
      creator,
      pages: pages.map((page, index) => ({
        startedDateTime: iso(page.time),
        id: pageIds[index]!.id,
        title: page.url,
        pageTimings: {},
        _transition: page.transition,
      })),
      entries: requests.map((request) => harEntry(request, answers.get(request.requestId) ?? null, pageOf(request))),
      _dataLayer: dataLayer.map((record) => ({
        time: iso(record.time),
        url: record.url,
        gtag: record.gtag,
        via: record.via,
        script: record.script,
        value: record.value,
      })),
    },
  };
}
