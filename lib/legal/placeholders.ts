import type { CataloguePlan, Currency } from '../api/catalogue.js';
import { listText, planLabel, planPriceText, productsText, seatsText } from '../catalogue/plan-text.js';

/**
 * Placeholders an administrator writes in the terms and the privacy policy (`{{legalEmail}}`),
 * filled in on the server each time the page is rendered: the contact addresses and site name from
 * the settings, and everything about plans (prices, billing periods, seats, currencies) from the
 * catalogue. So the documents state what is sold and whom to write to, and cannot drift from them
 * when an administrator changes a plan or an address. Descriptions are shown beside the editor.
 */
export const LEGAL_PLACEHOLDERS = {
  siteName: 'the site name (Site name section)',
  legalEmail: 'the address for legal questions, as a link to write to it (Contact addresses section)',
  privacyEmail: 'the address for privacy questions, as a link to write to it (Contact addresses section)',
  plans: 'on a line of its own: a list of the plans on sale, each with its price, billing period, seats and products',
  seats: 'the seats of each plan on sale, in one line (“Solo 1 seat, Team 5 seats and Agency 20 seats”)',
  billing: 'how the plans on sale are billed (monthly or yearly subscriptions, one-off plans, trials), in full sentences',
  currencies: 'the currencies of the plans on sale (“euros”)',
  graceDays: 'the days a licence keeps working after a renewal payment fails',
} as const;

export type LegalPlaceholder = keyof typeof LEGAL_PLACEHOLDERS;
export type LegalValues = Record<LegalPlaceholder, string>;

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;
const isKnown = (name: string): name is LegalPlaceholder => Object.hasOwn(LEGAL_PLACEHOLDERS, name);

/** The placeholders of `source` that are not {@link LEGAL_PLACEHOLDERS}, each once, as written. */
export function unknownPlaceholders(source: string): string[] {
  const unknown = new Set<string>();
  for (const match of source.matchAll(PLACEHOLDER)) if (!isKnown(match[1]!)) unknown.add(match[0]);
  return [...unknown];
}

/** Replaces every known placeholder with its value; anything else is left as it was written. */
export function fillPlaceholders(source: string, values: LegalValues): string {
  return source.replace(PLACEHOLDER, (whole, name: string) => (isKnown(name) ? values[name] : whole));
}

/** Plan names are an administrator's words: shown as written, never as Markdown. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+!<>|~]/g, '\\$&');

/** A checked address (the settings refuse anything else) as a Markdown link that opens the mail program. */
const mailLink = (address: string) => `[${escapeMarkdown(address)}](mailto:${address})`;

const CURRENCY_NAMES: Record<Currency, string> = { eur: 'euros', usd: 'US dollars', gbp: 'pounds sterling' };

/** What each placeholder stands for, from the settings and the active plans (in display order). */
export function legalValues(facts: {
  siteName: string;
  legalEmail: string;
  privacyEmail: string;
  plans: readonly CataloguePlan[];
  graceDays: number;
}): LegalValues {
  const { plans } = facts;
  const seatsByName = new Map<string, number>();
  for (const plan of plans) if (!seatsByName.has(plan.name)) seatsByName.set(plan.name, plan.seats);
  const currencies = [...new Set(plans.map((plan) => plan.currency))];
  return {
    siteName: escapeMarkdown(facts.siteName),
    legalEmail: mailLink(facts.legalEmail),
    privacyEmail: mailLink(facts.privacyEmail),
    plans: plans.length
      ? plans
          .map((plan) => {
            const trial = plan.trialDays > 0 ? `, ${plan.trialDays}-day free trial` : '';
            return `- **${escapeMarkdown(planLabel(plan))}**: ${planPriceText(plan)}, ${seatsText(plan.seats)}, ${productsText(plan.products)}${trial}`;
          })
          .join('\n')
      : '- No plan is on sale at the moment.',
    seats: plans.length ? listText([...seatsByName].map(([name, seats]) => `${escapeMarkdown(name)} ${seatsText(seats)}`)) : 'none on sale',
    billing: billingText(plans),
    currencies: currencies.length ? listText(currencies.map((currency) => CURRENCY_NAMES[currency] ?? currency.toUpperCase())) : 'euros',
    graceDays: String(facts.graceDays),
  };
}

/** How the plans on sale are billed, in sentences true for exactly those plans. */
function billingText(plans: readonly CataloguePlan[]): string {
  if (!plans.length) return 'No plan is on sale at the moment.';
  const sentences: string[] = [];
  const periods = (['month', 'year'] as const).filter((interval) => plans.some((plan) => plan.interval === interval));
  if (periods.length) {
    const words = periods.map((interval) => (interval === 'month' ? 'monthly' : 'yearly'));
    sentences.push(
      `A subscription is billed in advance, ${words.join(' or ')} as its plan says, and renews automatically at the end of each billing period until you cancel it.`,
    );
  }
  if (plans.some((plan) => plan.interval === 'lifetime')) {
    sentences.push('A one-off plan is paid once: its licence has no end date and nothing renews.');
  }
  if (plans.some((plan) => plan.trialDays > 0 && plan.interval !== 'lifetime')) {
    sentences.push('A plan with a free trial is first charged when the trial ends, unless you cancel before then.');
  }
  return sentences.join(' ');
}
