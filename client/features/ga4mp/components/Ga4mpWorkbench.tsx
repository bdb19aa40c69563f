import type { Ga4mpHistoryEntry } from '../../../../lib/api/ga4mp.js';
import { useToast } from '../../../components/Toaster.js';
import { withKey } from '../draft.js';
import { useSending } from '../hooks/useSending.js';
import { useWorkbench } from '../hooks/useWorkbench.js';
import { CredentialsPanel } from './CredentialsPanel.js';
import { EventsEditor } from './EventsEditor.js';
import { HistoryPanel } from './HistoryPanel.js';
import { IdentityPanel } from './IdentityPanel.js';
import { RawJsonEditor } from './RawJsonEditor.js';
import { ResponsePanel, SendPanel } from './SendPanel.js';
import { UserDataEditor } from './UserDataEditor.js';
import { UserPropertiesEditor } from './UserPropertiesEditor.js';
import { ValidationPanel } from './ValidationPanel.js';
import { ValidationSummary } from './ValidationSummary.js';
import '../ga4mp.css';

/**
 * The workbench: the form (credentials, identity, events, user properties, user data) on the left;
 * validation, sending and the raw JSON beside it; the history of sent payloads below.
 */
export function Ga4mpWorkbench() {
  const workbench = useWorkbench();
  const { draft, checks } = workbench;
  const sending = useSending(workbench);
  const toast = useToast();
  const pendingFields = new Set(workbench.pending.map((message) => message.fieldPath)).size;

  const replay = (entry: Ga4mpHistoryEntry) => {
    const hasSecret = workbench.replay(entry);
    sending.reset();
    window.scrollTo({ top: 0, behavior: 'smooth' });
    toast(hasSecret ? 'Payload loaded from history' : 'Payload loaded from history: type the API secret to send it', 'info', {
      key: 'ga4mp-history',
    });
  };

  return (
    <>
      <div className="ga4mp">
        <div className="ga4mp__composer">
          <ValidationSummary shown={workbench.shown} pending={workbench.pending} />
          <div className="card">
            <CredentialsPanel
              draft={draft}
              onStream={workbench.setStream}
              onStreamId={workbench.setStreamId}
              onSecret={workbench.setSecret}
              onRegion={workbench.setRegion}
              checks={checks}
            />
          </div>
          <div className="card">
            <IdentityPanel stream={draft.stream} body={draft.body} onChange={workbench.setBody} checks={checks} />
          </div>
          <div className="card">
            <EventsEditor
              events={draft.body.events}
              onChange={(events) => workbench.setBody(withKey(draft.body, 'events', events))}
              checks={checks}
            />
          </div>
          <div className="card">
            <UserPropertiesEditor
              properties={draft.body.user_properties}
              onChange={(properties) => workbench.setBody(withKey(draft.body, 'user_properties', properties))}
              checks={checks}
            />
          </div>
          <div className="card">
            <UserDataEditor body={draft.body} onChange={workbench.setBody} checks={checks} />
          </div>
        </div>
        <aside className="ga4mp__side" aria-label="Validation, sending and raw JSON">
          <div className="card ga4mp__validation-card">
            <ValidationPanel
              shown={workbench.shown}
              pending={workbench.pending}
              server={sending.server}
              validating={sending.validating}
              onValidateOnServer={sending.validateOnServer}
              onCheckAll={workbench.revealAll}
              behavior={draft.body.validation_behavior}
              onBehavior={(behavior) => {
                checks.touch('validation_behavior');
                workbench.setBody(withKey(draft.body, 'validation_behavior', behavior === 'RELAXED' ? undefined : behavior));
              }}
              behaviorMessages={checks.messagesFor('validation_behavior')}
            />
          </div>
          <div className="card">
            <SendPanel
              region={draft.region}
              invalidCount={workbench.shown.length}
              pendingCount={pendingFields}
              sending={sending.sending}
              onSend={sending.startSend}
            />
            <ResponsePanel
              result={sending.result}
              error={sending.sendError}
              refused={sending.refused}
              onSendAnyway={(debug) => sending.startSend(debug, true)}
            />
          </div>
          <div className="card ga4mp__raw-card">
            <RawJsonEditor text={workbench.rawText} error={workbench.rawError} onChange={workbench.setRaw} onFormat={workbench.formatRaw} />
          </div>
        </aside>
      </div>
      <HistoryPanel onReplay={replay} />
    </>
  );
}
