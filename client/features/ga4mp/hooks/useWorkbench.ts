import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import type { Ga4mpHistoryEntry } from '../../../../lib/api/ga4mp.js';
import { findDuplicateKeys } from '../../../../lib/tools/ga4mp/duplicates.js';
import type { Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import { generateAppInstanceId, generateClientId } from '../../../../lib/tools/ga4mp/ids.js';
import type { Ga4mpStream, ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { validateGa4mpRequest } from '../../../../lib/tools/ga4mp/validate.js';
import {
  type Body,
  type Draft,
  EXAMPLE_CLIENT_ID,
  type FieldChecks,
  initialDraft,
  isObject,
  isUnder,
  queryOf,
  rememberedSecret,
  rememberSecret,
  withKey,
} from '../draft.js';
import { useLiveRunReport } from './useLiveRunReport.js';

const format = (body: Body) => JSON.stringify(body, null, 2);

/** Touched "everything in the body" (the raw JSON was edited): every message outside the query shows. */
const WHOLE_BODY = '\u0000body';

/**
 * The client id a fresh page starts with. The server renders the first frame and a random id would
 * not hydrate, so the server snapshot is the fixed example and the browser's is generated once per
 * page load; React swaps them right after hydration.
 */
let pageClientId: string | undefined;
const noSubscription = () => () => undefined;
const browserClientId = () => (pageClientId ??= generateClientId());
const serverClientId = () => EXAMPLE_CLIENT_ID;

/** The text of the raw JSON editor while it differs from the formatted body (the user's own layout, or broken JSON). */
interface RawEdit {
  text: string;
  error: string | null;
}

/**
 * Which messages are shown. A fresh payload is incomplete by design (no measurement id yet), so a
 * message appears once the user has touched its field (or a field inside or around it), and every
 * message once they ask for a check (Validate, Send) or load a payload from the history.
 */
interface Touched {
  all: boolean;
  paths: ReadonlySet<string>;
}

const NOTHING_TOUCHED: Touched = { all: false, paths: new Set() };

/**
 * The workbench's state: one draft (credentials + JSON body) edited by the form and by the raw
 * JSON editor. The form writes the body and the text follows it; text that parses to an object
 * replaces the body; text that does not stays in the editor with its error, and the form keeps the
 * last valid body.
 */
export function useWorkbench() {
  const [state, setDraft] = useState<Draft>(initialDraft);
  const [rawEdit, setRawEdit] = useState<RawEdit | null>(null);
  const [touched, setTouched] = useState<Touched>(NOTHING_TOUCHED);
  const clientId = useSyncExternalStore(noSubscription, browserClientId, serverClientId);

  // Until the user changes anything, the example client id stands for this page's generated one.
  const draft = useMemo<Draft>(
    () => (state.body.client_id === EXAMPLE_CLIENT_ID ? { ...state, body: withKey(state.body, 'client_id', clientId) } : state),
    [state, clientId],
  );
  const rawText = rawEdit?.text ?? format(draft.body);
  const rawError = rawEdit?.error ?? null;

  const touch = useCallback(
    (path: string) =>
      setTouched((current) =>
        current.all || current.paths.has(path) ? current : { ...current, paths: new Set([...current.paths, path]) },
      ),
    [],
  );
  const revealAll = useCallback(() => setTouched((current) => (current.all ? current : { ...current, all: true })), []);

  const setBody = useCallback((body: Body) => {
    setDraft((current) => ({ ...current, body }));
    setRawEdit(null);
  }, []);

  const setRaw = (text: string) => {
    touch(WHOLE_BODY);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      setRawEdit({ text, error: (error as Error).message });
      return;
    }
    if (!isObject(parsed)) {
      setRawEdit({ text, error: 'the body must be a JSON object ({ … })' });
      return;
    }
    setRawEdit({ text, error: null });
    setDraft((current) => ({ ...current, body: parsed }));
  };

  /** Web ↔ app: the identifier field follows the stream; the stream id and secret start empty (and unchecked). */
  const setStream = (stream: Ga4mpStream) => {
    if (draft.stream === stream) return;
    let body = draft.body;
    if (stream === 'app') {
      body = withKey(body, 'client_id', undefined);
      if (body.app_instance_id === undefined) body = { app_instance_id: generateAppInstanceId(), ...body };
    } else {
      body = withKey(body, 'app_instance_id', undefined);
      if (body.client_id === undefined) body = { client_id: generateClientId(), ...body };
    }
    setDraft({ ...draft, stream, streamId: '', apiSecret: '', body });
    setRawEdit(null);
    // The new stream's id and secret start unchecked; what was revealed of the body stays revealed.
    setTouched((current) => ({
      all: false,
      paths: new Set([...current.paths, ...(current.all ? [WHOLE_BODY] : [])].filter((path) => !path.startsWith('query.'))),
    }));
  };

  const setStreamId = (streamId: string) => setDraft({ ...draft, streamId, apiSecret: rememberedSecret(streamId) || draft.apiSecret });

  const setSecret = (apiSecret: string) => {
    rememberSecret(draft.streamId, apiSecret);
    setDraft({ ...draft, apiSecret });
  };

  const setRegion = (region: Ga4mpRegion) => setDraft({ ...draft, region });

  /** Loads a history entry, checked in full; the secret comes from this tab's memory, never from the server. */
  const replay = (entry: Ga4mpHistoryEntry): boolean => {
    const streamId = entry.query.measurement_id ?? entry.query.firebase_app_id ?? '';
    const body = isObject(entry.body) ? entry.body : {};
    const apiSecret = rememberedSecret(streamId);
    setDraft({ stream: entry.stream, streamId, apiSecret, region: entry.region, body });
    setRawEdit(null);
    setTouched({ all: true, paths: new Set() });
    return apiSecret !== '';
  };

  const query = useMemo(() => queryOf(draft), [draft]);
  const messages = useMemo<ValidationMessage[]>(() => {
    const duplicates = rawEdit && rawEdit.error === null ? findDuplicateKeys(rawEdit.text) : [];
    return [...validateGa4mpRequest(query, draft.body).validationMessages, ...duplicates];
  }, [query, draft.body, rawEdit]);

  const { shown, pending } = useMemo(() => {
    const isShown = (message: ValidationMessage) =>
      touched.all ||
      [...touched.paths].some((path) =>
        path === WHOLE_BODY
          ? !message.fieldPath.startsWith('query.')
          : isUnder(message.fieldPath, path) || isUnder(path, message.fieldPath),
      );
    return { shown: messages.filter(isShown), pending: messages.filter((message) => !isShown(message)) };
  }, [messages, touched]);

  useLiveRunReport({ query, body: draft.body }, touched.all || touched.paths.size > 0);

  const checks = useMemo<FieldChecks>(() => {
    const byPath = new Map<string, ValidationMessage[]>();
    for (const message of shown) byPath.set(message.fieldPath, [...(byPath.get(message.fieldPath) ?? []), message]);
    return { messagesFor: (path) => byPath.get(path) ?? [], touch };
  }, [shown, touch]);

  return {
    draft,
    query,
    rawText,
    rawError,
    /** Every message of the payload as it stands (what a send would be refused for). */
    messages,
    /** The messages of touched fields, or all of them once a check was asked for. */
    shown,
    /** Messages of fields not touched yet: the panel lists them as still to fill in. */
    pending,
    checks,
    revealAll,
    setBody,
    setRaw,
    setStream,
    setStreamId,
    setSecret,
    setRegion,
    replay,
    formatRaw: () => setBody(draft.body),
  };
}
