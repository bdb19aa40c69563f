import { CAMPAIGN_STATE_LABELS, type CampaignState } from '../../../../lib/api/newsletter-campaigns.js';

/** The state as a badge: the word says it, the colour only repeats it. */
export function CampaignStateBadge({ state }: { state: CampaignState }) {
  return <span className={`badge campaign-state campaign-state--${state}`}>{CAMPAIGN_STATE_LABELS[state]}</span>;
}
