import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Ga4mpHistoryEntry, Ga4mpSendResult } from '../../../lib/tools/ga4mp/api-types.js';
import type { ValidationMessage, ValidationResponse } from '../../../lib/tools/ga4mp/types.js';
import { CredentialsPanel } from '../../features/ga4mp/components/CredentialsPanel.js';
import { EventsEditor } from '../../features/ga4mp/components/EventsEditor.js';
import { HISTORY_KEY, HistoryPanel } from '../../features/ga4mp/components/HistoryPanel.js';
import { IdentityPanel } from '../../features/ga4mp/components/IdentityPanel.js';
import { RawJsonEditor } from '../../features/ga4mp/components/RawJsonEditor.js';
import { ResponsePanel, SendPanel } from '../../features/ga4mp/components/SendPanel.js';
import { useWorkbench } from '../../features/ga4mp/hooks/useWorkbench.js';
import { UserDataEditor } from '../../features/ga4mp/components/UserDataEditor.js';
import { UserPropertiesEditor } from '../../features/ga4mp/components/UserPropertiesEditor.js';
import { ValidationPanel } from '../../features/ga4mp/components/ValidationPanel.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useToast } from '../../components/Toaster.js';
import { api, ApiError } from '../../app/api-client.js';
import { withKey } from '../../features/ga4mp/draft.js';
import '../../features/ga4mp/ga4mp.css';

const sameMessages = (a: ValidationMessage[], b: ValidationMessage[]) => JSON.stringify(a) === JSON.stringify(b);

export default function Ga4mpPage() {
  const workbench = useWorkbench();
  const { draft, query, messages, messagesFor } = workbench;
  const toast = useToast();
  const queryClient = useQueryClient();
  const [server, setServer] = useState<{ messages: ValidationMessage[]; matches: boolean } | null>(null);
  const [result, setResult] = useState<Ga4mpSendResult | null>(null);
  const [sendError, setSendError] = useState<{ message: string; status: number } | null>(null);
  const [refused, setRefused] = useState<{ debug: boolean; count: number } | null>(null);

  const validate = useMutation({
    mutationFn: () => api<ValidationResponse>('/api/tools/ga4mp/validate', { method: 'POST', body: { query, body: draft.body } }),
    onSuccess: (answer) => {
      const local = messages.filter((message) => message.validationCode !== 'NAME_DUPLICATED');
      setServer({ messages: answer.validationMessages, matches: sameMessages(answer.validationMessages, local) });
      const count = answer.validationMessages.length;
      toast(
        count === 0 ? 'Server validation: the payload is valid' : `Server validation: ${count} ${count === 1 ? 'message' : 'messages'}`,
        count === 0 ? 'success' : 'error',
      );
    },
    onError: (error) => toast(error.message, 'error'),
  });

  const send = useMutation({
    mutationFn: (options: { debug: boolean; force: boolean }) =>
      api<Ga4mpSendResult>('/api/tools/ga4mp/send', {
        method: 'POST',
        body: { query, body: draft.body, debug: options.debug, region: draft.region, force: options.force || undefined },
      }),
    onMutate: () => {
      setResult(null);
      setSendError(null);
      setRefused(null);
    },
    onSuccess: (answer, options) => {
      setResult(answer);
      const gaMessages = (answer.response as { validationMessages?: unknown[] } | null)?.validationMessages;
      if (!answer.ok) toast(`GA4 answered ${answer.status}`, 'error');
      else if (options.debug && gaMessages?.length)
        toast(`GA4's validation server returned ${gaMessages.length} ${gaMessages.length === 1 ? 'message' : 'messages'}`, 'error');
      else toast(options.debug ? "Sent to GA4's validation server: valid" : `Sent to GA4 (${answer.status})`, 'success');
    },
    onError: (error, options) => {
      if (error instanceof ApiError && error.status === 422) {
        setRefused({ debug: options.debug, count: Object.values(error.fields).flat().length });
        toast('Not sent: fix the validation messages or send anyway', 'error');
      } else {
        setSendError({ message: error.message, status: error instanceof ApiError ? error.status : 0 });
        toast(error.message, 'error');
      }
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: HISTORY_KEY }),
  });

  /** Refused here first (no request at all); the server refuses the same way if asked directly. */
  const startSend = (debug: boolean, force: boolean) => {
    if (!force && messages.length > 0) {
      setResult(null);
      setSendError(null);
      setRefused({ debug, count: messages.length });
      toast('Not sent: fix the validation messages or send anyway', 'error');
      return;
    }
    send.mutate({ debug, force });
  };

  const replay = (entry: Ga4mpHistoryEntry) => {
    const hasSecret = workbench.replay(entry);
    setServer(null);
    setResult(null);
    setSendError(null);
    setRefused(null);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    toast(hasSecret ? 'Payload loaded from history' : 'Payload loaded from history: type the API secret to send it', 'info');
  };

  return (
    <>
      <PageHeader title="GA4 Measurement Protocol">
        Compose a Measurement Protocol payload for a web or app stream, validate it against GA4's rules as you type, and send it to GA4's
        validation server or collection endpoint.
      </PageHeader>
      <div className="ga4mp">
        <div className="ga4mp__composer">
          <div className="card">
            <CredentialsPanel
              draft={draft}
              onStream={workbench.setStream}
              onStreamId={workbench.setStreamId}
              onSecret={workbench.setSecret}
              onRegion={workbench.setRegion}
              messagesFor={messagesFor}
            />
          </div>
          <div className="card">
            <IdentityPanel stream={draft.stream} body={draft.body} onChange={workbench.setBody} messagesFor={messagesFor} />
          </div>
          <div className="card">
            <EventsEditor
              events={draft.body.events}
              onChange={(events) => workbench.setBody(withKey(draft.body, 'events', events))}
              messagesFor={messagesFor}
            />
          </div>
          <div className="card">
            <UserPropertiesEditor
              properties={draft.body.user_properties}
              onChange={(properties) => workbench.setBody(withKey(draft.body, 'user_properties', properties))}
              messagesFor={messagesFor}
            />
          </div>
          <div className="card">
            <UserDataEditor body={draft.body} onChange={workbench.setBody} messagesFor={messagesFor} />
          </div>
        </div>
        <aside className="ga4mp__side" aria-label="Validation, sending and raw JSON">
          <div className="card">
            <ValidationPanel
              messages={messages}
              server={server}
              validating={validate.isPending}
              onValidateOnServer={() => validate.mutate()}
            />
          </div>
          <div className="card">
            <SendPanel
              region={draft.region}
              invalidCount={messages.length}
              sending={send.isPending ? (send.variables?.debug ? 'debug' : 'real') : null}
              onSend={startSend}
            />
            <ResponsePanel
              result={result}
              error={sendError}
              refused={refused}
              onSendAnyway={(debug) => send.mutate({ debug, force: true })}
            />
          </div>
          <div className="card">
            <RawJsonEditor text={workbench.rawText} error={workbench.rawError} onChange={workbench.setRaw} onFormat={workbench.formatRaw} />
          </div>
        </aside>
      </div>
      <HistoryPanel onReplay={replay} />
    </>
  );
}
