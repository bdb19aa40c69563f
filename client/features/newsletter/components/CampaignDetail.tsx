import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type AdminCampaign, formatDuration, sendEtaSeconds } from '../../../../lib/api/newsletter-campaigns.js';
import { renderMarkdown } from '../../../../lib/markdown/markdown.js';
import { Dialog } from '../../../components/Dialog.js';
import { useToast } from '../../../components/Toaster.js';
import { type CampaignAction, campaignQuery, failedCsvHref, newsletterSettingsQuery, useCampaignAction } from '../campaigns-api.js';
import { useCampaignProgress } from '../hooks/useCampaignProgress.js';
import { CampaignStateBadge } from './CampaignStateBadge.js';

const CONFIRMS: Partial<Record<CampaignAction, { title: string; text: string; button: string }>> = {
  cancel: {
    title: 'Cancel this campaign?',
    text: 'Nobody who has not received it yet will get it. A cancelled campaign cannot be resumed.',
    button: 'Cancel campaign',
  },
  'retry-failed': {
    title: 'Retry failed recipients?',
    text: 'Every recipient whose delivery failed gets a fresh set of attempts. Those the server refused for good may be refused again.',
    button: 'Retry failed',
  },
};

const DONE_MESSAGES: Record<CampaignAction, string> = {
  send: 'Sending started',
  pause: 'Sending paused',
  resume: 'Sending resumed',
  cancel: 'Campaign cancelled',
  'retry-failed': 'Failed recipients queued again',
};

const number = (value: number) => value.toLocaleString('en-GB');

/** A sent, sending, paused or cancelled campaign: its numbers live, a progress bar, rate and ETA, and the controls that apply. */
export function CampaignDetail({ campaign: initial, onClose }: { campaign: AdminCampaign; onClose: () => void }) {
  const toast = useToast();
  const { data } = useQuery({ ...campaignQuery(initial.id), initialData: initial });
  const campaign = data ?? initial;
  const channel = useCampaignProgress(campaign);
  const action = useCampaignAction();
  const settings = useQuery(newsletterSettingsQuery());
  const [confirm, setConfirm] = useState<CampaignAction | null>(null);
  const body = useMemo(() => renderMarkdown(campaign.body), [campaign.body]);

  const { counts, state } = campaign;
  const settled = counts.sent + counts.failed + counts.skipped;
  const percent = counts.total > 0 ? Math.floor((settled / counts.total) * 100) : state === 'sent' ? 100 : 0;
  const open = state === 'sending' || state === 'paused';
  const eta =
    campaign.etaSeconds ??
    (open && settings.data && campaign.snapshotComplete ? sendEtaSeconds(counts.queued, settings.data.settings, null) : null);

  async function run(which: CampaignAction) {
    try {
      const answer = await action.mutateAsync({ id: campaign.id, action: which });
      toast(which === 'retry-failed' ? answer.message : DONE_MESSAGES[which], 'success', { key: 'campaign-action' });
    } catch (error) {
      toast(error instanceof Error ? error.message : 'The action failed.', 'error', { key: 'campaign-action' });
    } finally {
      setConfirm(null);
    }
  }
  const ask = (which: CampaignAction) => (CONFIRMS[which] ? setConfirm(which) : void run(which));
  const confirmation = confirm ? CONFIRMS[confirm] : undefined;

  return (
    <section className="card campaigns campaign-detail" aria-labelledby="campaign-detail-title">
      <div className="campaigns__head">
        <div className="campaigns__title">
          <button type="button" className="button button--ghost button--small" onClick={onClose}>
            ← Campaigns
          </button>
          <h2 id="campaign-detail-title">{campaign.subject}</h2>
          <CampaignStateBadge state={state} />
        </div>
        <p className="muted campaign-detail__channel">
          {channel === 'live' ? 'Live' : channel === 'polling' ? 'Updating every 2 s' : state === 'sent' ? 'Finished' : ''}
        </p>
      </div>

      {campaign.pausedReason ? (
        <div className="alert alert--error" role="alert">
          {campaign.pausedReason}
        </div>
      ) : null}

      <dl className="campaign-detail__counts">
        <div>
          <dt>Sent</dt>
          <dd>{number(counts.sent)}</dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd>{number(counts.queued)}</dd>
          {counts.retrying > 0 ? <dd className="muted campaign-detail__note">{number(counts.retrying)} waiting to retry</dd> : null}
        </div>
        <div>
          <dt>Failed</dt>
          <dd className={counts.failed > 0 ? 'campaign-detail__bad' : undefined}>{number(counts.failed)}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{number(counts.skipped)}</dd>
          <dd className="muted campaign-detail__note">unsubscribed since</dd>
        </div>
      </dl>

      <div className="campaign-detail__progress">
        <progress
          className="campaign-detail__bar"
          aria-label="Recipients done"
          max={Math.max(counts.total, 1)}
          value={settled}
          aria-valuetext={`${number(settled)} of ${number(counts.total)} recipients done (${percent}%)`}
        />
        <p className="campaign-detail__facts">
          <span>
            {number(settled)} of {number(counts.total)}
            {campaign.snapshotComplete ? '' : '+'} done · {percent}%
          </span>
          {open && campaign.ratePerSecond !== null ? <span>{campaign.ratePerSecond} messages/s</span> : null}
          {open && eta !== null && eta > 0 ? <span>about {formatDuration(eta)} left</span> : null}
          {!campaign.snapshotComplete && open ? <span>Preparing the recipient list…</span> : null}
        </p>
        <p className="visually-hidden" aria-live="polite">
          {state === 'sent' ? 'Campaign sent.' : `${Math.floor(percent / 10) * 10}% done`}
        </p>
      </div>

      <div className="campaign-detail__actions">
        {state === 'sending' ? (
          <button type="button" className="button" disabled={action.isPending} onClick={() => ask('pause')}>
            Pause
          </button>
        ) : null}
        {state === 'paused' ? (
          <button type="button" className="button button--primary" disabled={action.isPending} onClick={() => ask('resume')}>
            Resume
          </button>
        ) : null}
        {counts.failed > 0 && state !== 'cancelled' ? (
          <button type="button" className="button" disabled={action.isPending} onClick={() => ask('retry-failed')}>
            Retry failed
          </button>
        ) : null}
        {counts.failed > 0 ? (
          <a className="button button--ghost" href={failedCsvHref(campaign.id)} download>
            Download failed (CSV)
          </a>
        ) : null}
        {open ? (
          <button type="button" className="button button--destructive" disabled={action.isPending} onClick={() => ask('cancel')}>
            Cancel campaign
          </button>
        ) : null}
      </div>

      <details className="campaign-detail__content">
        <summary>Message</summary>
        {/* renderMarkdown escapes raw HTML and allows only safe links (lib/markdown/markdown.ts). */}
        <div className="campaign-mail__body" dangerouslySetInnerHTML={{ __html: body }} />
      </details>

      {confirm && confirmation ? (
        <Dialog title={confirmation.title} placement="centered" onClose={() => setConfirm(null)}>
          <p>{confirmation.text}</p>
          <div className="campaigns__dialog-actions">
            <button
              type="button"
              className={`button ${confirm === 'cancel' ? 'button--destructive' : 'button--primary'}`}
              disabled={action.isPending}
              onClick={() => void run(confirm)}
            >
              {action.isPending ? 'Working…' : confirmation.button}
            </button>
            <button type="button" className="button button--ghost" disabled={action.isPending} onClick={() => setConfirm(null)}>
              Back
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
