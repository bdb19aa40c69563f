import { useState } from 'react';
import {
  type SponsorCurrency,
  sponsorLogoUrl,
  type SponsorsSettings,
  type Sponsor,
  type SponsorTier,
} from '../../../../lib/api/site-settings.js';
import { decimalToMinor, minorToDecimal } from '../../../../lib/money.js';

export interface TierDraft {
  id: string;
  name: string;
  /** As typed: "25" or "9.50". */
  amount: string;
  currency: SponsorCurrency;
  description: string;
  /** One perk per line. */
  perks: string;
}

export interface SponsorDraft {
  id: string;
  name: string;
  url: string;
  tierId: string;
  logoId: string | null;
  logoUrl: string | null;
}

export interface SponsorDrafts {
  tiers: TierDraft[];
  sponsors: SponsorDraft[];
}

/** Ids are made once, when a row is added, and never shown: sponsors name their tier by it. */
const newId = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

export const toDrafts = (saved: SponsorsSettings): SponsorDrafts => ({
  tiers: saved.tiers.map((tier) => ({
    id: tier.id,
    name: tier.name,
    amount: minorToDecimal(tier.monthlyAmount, tier.currency),
    currency: tier.currency,
    description: tier.description,
    perks: tier.perks.join('\n'),
  })),
  sponsors: saved.sponsors.map((sponsor) => ({ ...sponsor, logoUrl: sponsor.logoId ? sponsorLogoUrl(sponsor.logoId) : null })),
});

/** The request, or the fields the browser can already refuse (an amount that is not a price). */
export function toRequest(drafts: SponsorDrafts): { request: SponsorsSettings; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const tiers: SponsorTier[] = drafts.tiers.map((tier, index) => {
    const monthlyAmount = decimalToMinor(tier.amount, tier.currency);
    if (monthlyAmount === null) errors[`tiers.${index}.monthlyAmount`] = ['Enter an amount such as 25 or 9.50'];
    return {
      id: tier.id,
      name: tier.name,
      monthlyAmount: monthlyAmount ?? 0,
      currency: tier.currency,
      description: tier.description,
      perks: tier.perks
        .split('\n')
        .map((perk) => perk.trim())
        .filter(Boolean),
    };
  });
  const sponsors: Sponsor[] = drafts.sponsors.map(({ id, name, url, tierId, logoId }) => ({ id, name, url: url.trim(), tierId, logoId }));
  return { request: { tiers, sponsors }, errors };
}

function move<T>(list: T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return list;
  const next = [...list];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

export function useSponsorDrafts(drafts: SponsorDrafts, setDrafts: (drafts: SponsorDrafts) => void) {
  const [lastAdded, setLastAdded] = useState<string | null>(null);
  const update = (patch: Partial<SponsorDrafts>) => setDrafts({ ...drafts, ...patch });
  return {
    lastAdded,
    addTier() {
      const id = newId('tier');
      setLastAdded(id);
      update({
        tiers: [
          ...drafts.tiers,
          { id, name: '', amount: '', currency: drafts.tiers.at(-1)?.currency ?? 'EUR', description: '', perks: '' },
        ],
      });
    },
    changeTier(id: string, patch: Partial<TierDraft>) {
      update({ tiers: drafts.tiers.map((tier) => (tier.id === id ? { ...tier, ...patch } : tier)) });
    },
    moveTier(index: number, by: -1 | 1) {
      update({ tiers: move(drafts.tiers, index, by) });
    },
    removeTier(id: string) {
      update({ tiers: drafts.tiers.filter((tier) => tier.id !== id) });
    },
    addSponsor() {
      const id = newId('sponsor');
      setLastAdded(id);
      update({ sponsors: [...drafts.sponsors, { id, name: '', url: '', tierId: drafts.tiers[0]?.id ?? '', logoId: null, logoUrl: null }] });
    },
    changeSponsor(id: string, patch: Partial<SponsorDraft>) {
      update({ sponsors: drafts.sponsors.map((sponsor) => (sponsor.id === id ? { ...sponsor, ...patch } : sponsor)) });
    },
    moveSponsor(index: number, by: -1 | 1) {
      update({ sponsors: move(drafts.sponsors, index, by) });
    },
    removeSponsor(id: string) {
      update({ sponsors: drafts.sponsors.filter((sponsor) => sponsor.id !== id) });
    },
  };
}
