import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import {
  CAMPAIGN_BODY_MAX,
  CAMPAIGN_SUBJECT_MAX,
  type AdminCampaign,
  type CampaignInput,
} from '../../../../lib/api/newsletter-campaigns.js';
import { renderMarkdown } from '../../../../lib/markdown/markdown.js';
import { Dialog } from '../../../components/Dialog.js';
import { Field, FormField } from '../../../components/FormField.js';
import { fieldErrors } from '../../../components/FormAlert.js';
import { SegmentedControl } from '../../../components/SegmentedControl.js';
import { useToast } from '../../../components/Toaster.js';
import {
  campaignsQuery,
  useCampaignAction,
  useDeleteCampaign,
  usePreviewCampaign,
  useSaveCampaign,
  useTestSend,
} from '../campaigns-api.js';
import { CampaignStateBadge } from './CampaignStateBadge.js';

type Pane = 'write' | 'preview';
type Confirm = 'send' | 'delete' | null;

const PANES = [
  { value: 'write', label: 'Write' },
  { value: 'preview', label: 'Preview' },
] as const;

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

/**
 * Compose a campaign: subject and Markdown with a live preview (the site's own renderer, the one
 * the server sends with), side by side on wide screens and as Write/Preview tabs on phones. Save,
 * send a test, then send to every confirmed subscriber after a confirmation.
 */
export function CampaignEditor({
  campaign,
  onClose,
  onSaved,
}: {
  campaign: AdminCampaign | null;
  onClose: () => void;
  onSaved: (id: string) => void;
}) {
  const toast = useToast();
  const [subject, setSubject] = useState(campaign?.subject ?? '');
  const [body, setBody] = useState(campaign?.body ?? '');
  const [pane, setPane] = useState<Pane>('write');
  const [testTo, setTestTo] = useState('');
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [plainText, setPlainText] = useState<string | null>(null);
  const save = useSaveCampaign();
  const test = useTestSend();
  const action = useCampaignAction();
  const remove = useDeleteCampaign();
  const preview = usePreviewCampaign();
  const list = useQuery(campaignsQuery());
  const bodyId = useId();
  const previewId = useId();

  const input: CampaignInput = { subject, body };
  const dirty = !campaign || campaign.subject !== subject || campaign.body !== body;
  const errors = fieldErrors(save.error);
  const rendered = useMemo(() => renderMarkdown(body), [body]);
  const recipients = list.data?.confirmedSubscribers;
  const busy = save.isPending || action.isPending || remove.isPending;

  /** Saves when there is something to save; answers the campaign's id, or null when the save was refused. */
  async function ensureSaved(): Promise<string | null> {
    if (campaign && !dirty) return campaign.id;
    try {
      const saved = await save.mutateAsync({ id: campaign?.id ?? null, input });
      if (!campaign) onSaved(saved.id);
      return saved.id;
    } catch (error) {
      toast(`Not saved: ${errorMessage(error)}`, 'error', { key: 'campaign-save' });
      return null;
    }
  }

  async function onSave() {
    if (await ensureSaved()) toast('Draft saved', 'success', { key: 'campaign-save' });
  }

  async function onTest() {
    const id = await ensureSaved();
    if (!id) return;
    try {
      const answer = await test.mutateAsync({ id, to: testTo.trim() });
      toast(answer.message, 'success', { key: 'campaign-test' });
    } catch (error) {
      toast(`Test not sent: ${errorMessage(error)}`, 'error', { key: 'campaign-test' });
    }
  }

  async function onSend() {
    const id = await ensureSaved();
    if (!id) return;
    try {
      await action.mutateAsync({ id, action: 'send' });
      toast('Sending started', 'success', { key: 'campaign-action' });
      setConfirm(null);
    } catch (error) {
      toast(`Not sent: ${errorMessage(error)}`, 'error', { key: 'campaign-action' });
      setConfirm(null);
    }
  }

  async function onDelete() {
    if (!campaign) return;
    try {
      await remove.mutateAsync(campaign.id);
      toast('Draft deleted', 'success', { key: 'campaign-action' });
      onClose();
    } catch (error) {
      toast(`Not deleted: ${errorMessage(error)}`, 'error', { key: 'campaign-action' });
      setConfirm(null);
    }
  }

  async function onPlainText() {
    try {
      setPlainText((await preview.mutateAsync(input)).text);
    } catch (error) {
      toast(`No preview: ${errorMessage(error)}`, 'error', { key: 'campaign-preview' });
    }
  }

  const testErrors = fieldErrors(test.error).to;
  return (
    <section className="card campaigns campaign-editor" aria-labelledby="campaign-editor-title">
      <div className="campaigns__head">
        <div className="campaigns__title">
          <button type="button" className="button button--ghost button--small" onClick={onClose}>
            ← Campaigns
          </button>
          <h2 id="campaign-editor-title">{campaign ? 'Edit draft' : 'New campaign'}</h2>
          {campaign ? <CampaignStateBadge state={campaign.state} /> : null}
        </div>
        <p className="muted campaign-editor__saved" role="status">
          {save.isPending ? 'Saving…' : dirty ? 'Unsaved changes' : 'All changes saved'}
        </p>
      </div>

      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void onSave();
        }}
      >
        <FormField
          label="Subject"
          value={subject}
          maxLength={CAMPAIGN_SUBJECT_MAX}
          onChange={(event) => setSubject(event.target.value)}
          errors={errors.subject}
          required
        />

        <SegmentedControl label="Editor view" options={PANES} value={pane} onChange={setPane} className="campaign-editor__tabs" />
        <div className={`campaign-editor__panes campaign-editor__panes--${pane}`}>
          <div className="campaign-editor__pane campaign-editor__pane--write">
            <Field
              label="Message (Markdown)"
              id={bodyId}
              errors={errors.body}
              hint={`Headings, lists, links, **bold**, _italic_, quotes and code. No images. ${body.length.toLocaleString('en-GB')} / ${CAMPAIGN_BODY_MAX.toLocaleString('en-GB')} characters.`}
            >
              {(control) => (
                <textarea
                  {...control}
                  className="input campaign-editor__body"
                  value={body}
                  maxLength={CAMPAIGN_BODY_MAX}
                  rows={18}
                  spellCheck
                  onChange={(event) => setBody(event.target.value)}
                />
              )}
            </Field>
          </div>
          <div className="campaign-editor__pane campaign-editor__pane--preview">
            <p className="label campaign-editor__preview-label" id={previewId}>
              Preview
            </p>
            <article className="campaign-mail" aria-labelledby={previewId}>
              <p className="campaign-mail__subject">{subject || 'No subject yet'}</p>
              {body.trim() ? (
                // renderMarkdown escapes raw HTML and allows only safe links (lib/markdown/markdown.ts).
                <div className="campaign-mail__body" dangerouslySetInnerHTML={{ __html: rendered }} />
              ) : (
                <p className="muted">The preview appears as you write.</p>
              )}
              <p className="campaign-mail__footer">
                You receive this because you subscribed to the newsletter. <span className="campaign-mail__link">Unsubscribe</span>
              </p>
            </article>
          </div>
        </div>

        <div className="campaign-editor__actions">
          <button type="submit" className="button" disabled={busy || !dirty}>
            {save.isPending ? 'Saving…' : 'Save draft'}
          </button>
          <button type="button" className="button button--ghost" disabled={preview.isPending} onClick={() => void onPlainText()}>
            Plain-text version
          </button>
          {campaign ? (
            <button
              type="button"
              className="button button--ghost campaign-editor__delete"
              disabled={busy}
              onClick={() => setConfirm('delete')}
            >
              Delete draft
            </button>
          ) : null}
        </div>
      </form>

      <div className="campaign-editor__send">
        <form
          className="campaign-editor__test"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void onTest();
          }}
        >
          <FormField
            label="Send a test to"
            type="email"
            autoComplete="email"
            placeholder="Your own address"
            hint="Empty: your own address. A test is marked [Test] and counts as no delivery."
            value={testTo}
            onChange={(event) => setTestTo(event.target.value)}
            errors={testErrors}
          />
          <button type="submit" className="button" disabled={test.isPending || busy}>
            {test.isPending ? 'Sending test…' : 'Send test'}
          </button>
        </form>
        <div className="campaign-editor__go">
          <button
            type="button"
            className="button button--primary"
            disabled={busy || recipients === 0 || !subject.trim() || !body.trim()}
            onClick={() => setConfirm('send')}
          >
            {recipients === undefined
              ? 'Send to all confirmed subscribers'
              : `Send to ${recipients.toLocaleString('en-GB')} confirmed subscribers`}
          </button>
          {recipients === 0 ? <p className="muted">Nobody has confirmed a subscription yet.</p> : null}
        </div>
      </div>

      {confirm === 'send' ? (
        <Dialog title="Send this campaign?" placement="centered" onClose={() => setConfirm(null)}>
          <p>
            “{subject}” goes to {recipients?.toLocaleString('en-GB') ?? 'every'} confirmed subscriber{recipients === 1 ? '' : 's'}. You can
            pause or cancel while it sends, but a message that went out cannot be called back.
          </p>
          <div className="campaigns__dialog-actions">
            <button type="button" className="button button--primary" disabled={busy} onClick={() => void onSend()}>
              {action.isPending ? 'Starting…' : 'Send now'}
            </button>
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
      {confirm === 'delete' ? (
        <Dialog title="Delete this draft?" placement="centered" onClose={() => setConfirm(null)}>
          <p>The draft “{campaign?.subject}” is deleted for good.</p>
          <div className="campaigns__dialog-actions">
            <button type="button" className="button button--destructive" disabled={busy} onClick={() => void onDelete()}>
              {remove.isPending ? 'Deleting…' : 'Delete draft'}
            </button>
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => setConfirm(null)}>
              Keep it
            </button>
          </div>
        </Dialog>
      ) : null}
      {plainText !== null ? (
        <Dialog title="Plain-text version" placement="centered" onClose={() => setPlainText(null)}>
          <p className="muted">The text/plain part of the message, as the server renders it for your address.</p>
          <pre className="campaign-editor__plain">{plainText}</pre>
        </Dialog>
      ) : null}
    </section>
  );
}
