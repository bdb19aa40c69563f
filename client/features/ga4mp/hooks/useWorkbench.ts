import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Ga4mpHistoryEntry } from '../../../../lib/tools/ga4mp/api-types.js';
import { findDuplicateKeys } from '../../../../lib/tools/ga4mp/duplicates.js';
import type { Ga4mpRegion } from '../../../../lib/tools/ga4mp/endpoint.js';
import { generateAppInstanceId, generateClientId } from '../../../../lib/tools/ga4mp/ids.js';
import type { Ga4mpStream, ValidationMessage } from '../../../../lib/tools/ga4mp/types.js';
import { validateGa4mpRequest } from '../../../../lib/tools/ga4mp/validate.js';
import {
  type Body,
  type Draft,
  EXAMPLE_CLIENT_ID,
  initialDraft,
  isObject,
  queryOf,
  rememberedSecret,
  rememberSecret,
  withKey,
} from '../draft.js';

const format = (body: Body) => JSON.stringify(body, null, 2);

/**
 * The workbench's state: one draft (credentials + JSON body) edited by the form and by the raw
 * JSON editor. The form writes the body and reformats the text; the text, when it parses to an
 * object, replaces the body; when it does not, the form keeps the last valid body.
 */
export function useWorkbench() {
  const [draft, setDraft] = useState<Draft>(initialDraft);
  const [rawText, setRawText] = useState(() => format(draft.body));
  const [rawError, setRawError] = useState<string | null>(null);

  const setBody = useCallback((body: Body) => {
    setDraft((current) => ({ ...current, body }));
    setRawText(format(body));
    setRawError(null);
  }, []);

  // The first render is the server's: a random client id would not hydrate. Generate it after mount.
  useEffect(() => {
    if (draft.body.client_id === EXAMPLE_CLIENT_ID) setBody(withKey(draft.body, 'client_id', generateClientId()));
    // Once, on mount: later edits are the user's.
  }, []);

  const setRaw = useCallback((text: string) => {
    setRawText(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      setRawError((error as Error).message);
      return;
    }
    if (!isObject(parsed)) {
      setRawError('the body must be a JSON object ({ … })');
      return;
    }
    setRawError(null);
    setDraft((current) => ({ ...current, body: parsed }));
  }, []);

  /** Web ↔ app: the identifier field follows the stream; the stream id and secret start empty. */
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
    setRawText(format(body));
    setRawError(null);
  };

  const setStreamId = (streamId: string) => setDraft({ ...draft, streamId, apiSecret: rememberedSecret(streamId) || draft.apiSecret });

  const setSecret = (apiSecret: string) => {
    rememberSecret(draft.streamId, apiSecret);
    setDraft({ ...draft, apiSecret });
  };

  const setRegion = (region: Ga4mpRegion) => setDraft({ ...draft, region });

  /** Loads a history entry; the secret comes from this tab's memory, never from the server. */
  const replay = useCallback((entry: Ga4mpHistoryEntry): boolean => {
    const streamId = entry.query.measurement_id ?? entry.query.firebase_app_id ?? '';
    const body = isObject(entry.body) ? entry.body : {};
    const apiSecret = rememberedSecret(streamId);
    setDraft({ stream: entry.stream, streamId, apiSecret, region: entry.region, body });
    setRawText(format(body));
    setRawError(null);
    return apiSecret !== '';
  }, []);

  const query = useMemo(() => queryOf(draft), [draft]);
  const messages = useMemo<ValidationMessage[]>(() => {
    const duplicates = rawError === null ? findDuplicateKeys(rawText) : [];
    return [...validateGa4mpRequest(query, draft.body).validationMessages, ...duplicates];
  }, [query, draft.body, rawText, rawError]);
  const byPath = useMemo(() => {
    const map = new Map<string, ValidationMessage[]>();
    for (const message of messages) map.set(message.fieldPath, [...(map.get(message.fieldPath) ?? []), message]);
    return map;
  }, [messages]);
  const messagesFor = useCallback((path: string) => byPath.get(path) ?? [], [byPath]);

  return {
    draft,
    query,
    rawText,
    rawError,
    messages,
    messagesFor,
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
