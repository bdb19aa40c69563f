import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { AdminCampaignSummary } from '../../../../lib/api/newsletter-campaigns.js';
import { campaignQuery, campaignsQuery } from '../campaigns-api.js';
import { CampaignDetail } from './CampaignDetail.js';
import { CampaignEditor } from './CampaignEditor.js';
import { CampaignStateBadge } from './CampaignStateBadge.js';
import { formatDateTime } from '../../../../lib/format/date.js';
import '../campaigns.css';

const SKELETON_ROWS = 3;

/**
 * The campaigns section of /admin/newsletter. Which view shows is in the query string, so it
 * survives a reload and the back button works, without a route of its own: no `campaign` → the
 * list; `campaign=new` → a new draft; `campaign=<id>` → the editor for a draft, the progress view
 * for anything sent or sending.
 */
export function CampaignsAdmin() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('campaign');
  const open = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('campaign', id);
        else next.delete('campaign');
        return next;
      },
      { preventScrollReset: true },
    );

  if (selected === 'new') return <CampaignEditor campaign={null} onClose={() => open(null)} onSaved={(id) => open(id)} />;
  if (selected) return <SelectedCampaign id={selected} onClose={() => open(null)} />;
  return <CampaignList onOpen={open} />;
}

function SelectedCampaign({ id, onClose }: { id: string; onClose: () => void }) {
  const { data, isPending, isError, error, refetch } = useQuery(campaignQuery(id));
  if (isPending) {
    return (
      <section className="card campaigns" aria-busy="true" aria-label="Campaign">
        <div className="skeleton campaigns__skeleton-title" />
        <div className="skeleton campaigns__skeleton-block" />
      </section>
    );
  }
  if (isError) {
    return (
      <section className="card campaigns" aria-labelledby="campaign-error-title">
        <h2 id="campaign-error-title">Campaign</h2>
        <div className="alert alert--error campaigns__error" role="alert">
          <span>Could not load the campaign. {error.message}</span>
          <span className="campaigns__actions">
            <button type="button" className="button button--small" onClick={() => void refetch()}>
              Retry
            </button>
            <button type="button" className="button button--small button--ghost" onClick={onClose}>
              Back to campaigns
            </button>
          </span>
        </div>
      </section>
    );
  }
  return data.state === 'draft' ? (
    <CampaignEditor key={data.id} campaign={data} onClose={onClose} onSaved={() => undefined} />
  ) : (
    <CampaignDetail campaign={data} onClose={onClose} />
  );
}

function CampaignList({ onOpen }: { onOpen: (id: string) => void }) {
  const { data, isPending, isError, error, refetch } = useQuery(campaignsQuery());
  return (
    <section className="card campaigns" aria-labelledby="campaigns-title">
      <div className="campaigns__head">
        <div>
          <h2 id="campaigns-title">Campaigns</h2>
          <p className="muted campaigns__lead">
            {data ? `${data.confirmedSubscribers.toLocaleString('en-GB')} confirmed subscribers would receive a campaign sent now.` : ' '}
          </p>
        </div>
        <button type="button" className="button button--primary" onClick={() => onOpen('new')}>
          New campaign
        </button>
      </div>
      {isError && !data ? (
        <div className="alert alert--error campaigns__error" role="alert">
          <span>Could not load the campaigns. {error.message}</span>
          <button type="button" className="button button--small" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      ) : data?.items.length === 0 ? (
        <div className="empty-state">
          <h3>No campaigns yet</h3>
          <p>Write one in Markdown, preview it, send yourself a test, then send it to every confirmed subscriber.</p>
          <button type="button" className="button button--small" onClick={() => onOpen('new')}>
            Write the first campaign
          </button>
        </div>
      ) : (
        <div className="campaigns__table-wrap">
          <table className="table table--stack campaigns__table" aria-busy={isPending || undefined}>
            <caption className="visually-hidden">Campaigns, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">State</th>
                <th scope="col">Sent</th>
                <th scope="col">Failed</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {isPending
                ? Array.from({ length: SKELETON_ROWS }, (_, row) => (
                    <tr key={row} aria-hidden="true">
                      {Array.from({ length: 5 }, (_, cell) => (
                        <td key={cell}>
                          <div className="skeleton" />
                        </td>
                      ))}
                    </tr>
                  ))
                : data.items.map((campaign) => <CampaignRow key={campaign.id} campaign={campaign} onOpen={onOpen} />)}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CampaignRow({ campaign, onOpen }: { campaign: AdminCampaignSummary; onOpen: (id: string) => void }) {
  const { counts } = campaign;
  return (
    <tr>
      <td data-label="Subject" className="campaigns__subject">
        <button type="button" className="campaigns__open" onClick={() => onOpen(campaign.id)}>
          {campaign.subject}
        </button>
      </td>
      <td data-label="State">
        <CampaignStateBadge state={campaign.state} />
      </td>
      <td data-label="Sent">
        {campaign.state === 'draft' ? '—' : `${counts.sent.toLocaleString('en-GB')} / ${counts.total.toLocaleString('en-GB')}`}
      </td>
      <td data-label="Failed">{campaign.state === 'draft' ? '—' : counts.failed.toLocaleString('en-GB')}</td>
      <td data-label="Created">
        <time dateTime={campaign.createdAt}>{formatDateTime(campaign.createdAt)}</time>
      </td>
    </tr>
  );
}
