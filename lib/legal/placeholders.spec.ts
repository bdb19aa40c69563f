import { type CataloguePlan, DEFAULT_PLANS } from '../api/catalogue.js';
import { renderMarkdown } from '../markdown/markdown.js';
import { fillPlaceholders, legalValues, unknownPlaceholders } from './placeholders.js';

const DEFAULT_CATALOGUE: CataloguePlan[] = DEFAULT_PLANS.map(({ active: _active, stripePriceId: _price, ...plan }) => plan);
const facts = (plans: readonly CataloguePlan[] = DEFAULT_CATALOGUE) => ({
  siteName: 'Hitscope',
  legalEmail: 'legal@example.test',
  privacyEmail: 'privacy@example.test',
  plans,
  graceDays: 7,
});

describe('legal placeholders', () => {
  it('states the default catalogue: each plan with price, period, seats and products; monthly, yearly and one-off billing; euros', () => {
    const values = legalValues(facts());
    expect(values.plans.split('\n')).toEqual([
      '- **Solo \\(monthly\\)**: €9 per month, 1 seat, Hitscope for Apps and Hitscope for Browsers',
      '- **Solo \\(yearly\\)**: €90 per year, 1 seat, Hitscope for Apps and Hitscope for Browsers',
      '- **Team \\(monthly\\)**: €29 per month, 5 seats, Hitscope for Apps and Hitscope for Browsers',
      '- **Team \\(yearly\\)**: €290 per year, 5 seats, Hitscope for Apps and Hitscope for Browsers',
      '- **Agency \\(monthly\\)**: €79 per month, 20 seats, Hitscope for Apps and Hitscope for Browsers',
      '- **Solo lifetime**: €199 one-off, 1 seat, Hitscope for Apps and Hitscope for Browsers',
    ]);
    expect(values.seats).toBe('Solo 1 seat, Team 5 seats, Agency 20 seats and Solo lifetime 1 seat');
    expect(values.billing).toBe(
      'A subscription is billed in advance, monthly or yearly as its plan says, and renews automatically at the end of each billing period until you cancel it. ' +
        'A one-off plan is paid once: its licence has no end date and nothing renews.',
    );
    expect(values.currencies).toBe('euros');
    expect(renderMarkdown(values.plans)).toContain('<li><strong>Team (monthly)</strong>: €29 per month, 5 seats,');
  });

  it('follows the catalogue: another currency, only monthly plans, a trial, an Apps-only plan, a name with Markdown in it', () => {
    const plan = DEFAULT_CATALOGUE.find((candidate) => candidate.id === 'team-monthly')!;
    const values = legalValues(
      facts([
        { ...plan, name: '*Pro* [x]', products: ['hitscope-for-apps'], trialDays: 14 },
        { ...plan, id: 'usd', currency: 'usd', amountMinor: 3100 },
      ]),
    );
    expect(values.plans).toContain('- **\\*Pro\\* \\[x\\] \\(monthly\\)**: €29 per month, 5 seats, Hitscope for Apps, 14-day free trial');
    expect(values.billing).toBe(
      'A subscription is billed in advance, monthly as its plan says, and renews automatically at the end of each billing period until you cancel it. ' +
        'A plan with a free trial is first charged when the trial ends, unless you cancel before then.',
    );
    expect(values.currencies).toBe('euros and US dollars');
    expect(legalValues(facts([])).plans).toBe('- No plan is on sale at the moment.');
  });

  it('fills what it knows and reports the rest, each once', () => {
    const values = legalValues(facts());
    expect(fillPlaceholders('Write to {{ legalEmail }} or {{privacyEmail}}; {{nope}} stays.', values)).toBe(
      'Write to [legal@example.test](mailto:legal@example.test) or [privacy@example.test](mailto:privacy@example.test); {{nope}} stays.',
    );
    expect(renderMarkdown(fillPlaceholders('Write to {{legalEmail}}.', values))).toBe(
      '<p>Write to <a href="mailto:legal@example.test">legal@example.test</a>.</p>\n',
    );
    expect(unknownPlaceholders('{{legalEmail}} {{nope}} {{ nope }} {{nope}} {{constructor}}')).toEqual([
      '{{nope}}',
      '{{ nope }}',
      '{{constructor}}',
    ]);
  });
});
