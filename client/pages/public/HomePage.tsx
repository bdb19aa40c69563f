import { type FormEvent, useId } from 'react';
import { PRICING } from '../../../lib/pricing.js';
import { COMPANION_PRODUCTS, PRODUCT, TOOLS, type ToolSlug } from '../../../lib/product.js';
import { AppLink } from '../../components/AppLink.js';
import { Icon, type IconName } from '../../components/Icon.js';
import { useToast } from '../../components/Toaster.js';
import { useMe } from '../../app/data-source.js';
import './public.css';

/** What each tool does, in the words of someone who has debugged a broken tag at 11 pm. */
const TOOL_DETAILS: Record<ToolSlug, { icon: IconName; points: readonly string[] }> = {
  ga4mp: {
    icon: 'bolt',
    points: [
      'Web streams (measurement_id + api_secret) and app streams (firebase_app_id + api_secret).',
      'Validated locally against GA4’s documented rules, with the same messages and codes as the validation server.',
      'Send to the debug endpoint first, then for real; every payload you send stays in your history.',
    ],
  },
  'google-tag-linker': {
    icon: 'link',
    points: [
      'Paste a _gl value or a whole decorated URL and see _ga, _ga_<id>, _gcl_* and FPLC.',
      'Check the fingerprint against a user agent, language, timezone and time to see why a link was rejected.',
      'Generate a _gl value or a decorated URL from cookies to test a cross-domain setup.',
    ],
  },
  [COMPANION_PRODUCTS.browsers.slug]: {
    icon: 'compass',
    points: [
      'Drop a HAR export from devtools: every GA4 /g/collect hit, batched POST bodies included.',
      'Universal Analytics, Google Ads, Floodlight and Meta pixel decoded into named parameters.',
      'Warnings for missing consent state, duplicate page_view and missing client id.',
    ],
  },
  [COMPANION_PRODUCTS.apps.slug]: {
    icon: 'phone',
    points: [
      'Paste or drop Android logcat or iOS console output with Firebase / GA4 debug logging on.',
      'The event stream decoded event by event, checked against GA4 and Firebase limits.',
      'The desktop app for Windows, macOS and Linux comes with every plan.',
    ],
  },
};

const STEPS = [
  {
    title: 'Capture',
    text: 'Export a HAR file from your browser’s devtools, copy a decorated URL, paste a logcat excerpt or write a Measurement Protocol payload. No tag changes, no proxy to install.',
  },
  {
    title: 'Decode',
    text: 'Every hit is split into named parameters: event name, measurement ID, client and session IDs, consent state, page location and every custom parameter.',
  },
  {
    title: 'Fix with evidence',
    text: 'Warnings point at the exact hit and parameter that is wrong. Validate the fix before it ships, and send your developers a finding instead of a hunch.',
  },
] as const;

const REASONS: ReadonlyArray<{ icon: IconName; title: string; text: string }> = [
  {
    icon: 'shield',
    title: 'Your files stay on your machine',
    text: 'HAR files and app logs are analysed in your browser and never uploaded. Client data in a HAR export is not ours to keep.',
  },
  {
    icon: 'check',
    title: 'Same rules as Google',
    text: 'Measurement Protocol payloads are checked against GA4’s documented limits, with the validation server’s own messages and codes.',
  },
  {
    icon: 'eye',
    title: 'Consent mode, visible',
    text: 'See the consent state every hit was sent with, and catch the hits that were sent without one.',
  },
];

const HERO_EXAMPLE: ReadonlyArray<{ key: string; value: string; note: string }> = [
  { key: 'en', value: 'page_view', note: 'event name' },
  { key: 'tid', value: 'G-8XK2Q4M1ZP', note: 'measurement ID' },
  { key: 'cid', value: '1849271203.1763798400', note: 'client ID' },
  { key: 'gcs', value: 'G101', note: 'ad_storage denied, analytics_storage granted' },
  { key: 'dl', value: 'https://shop.example.com/checkout', note: 'page location' },
];

export default function HomePage() {
  const me = useMe();
  const toast = useToast();
  const emailId = useId();
  const consentId = useId();
  const pricingTarget = me ? '/dashboard/user/subscription' : '/register?redirect=%2Fdashboard%2Fuser%2Fsubscription';

  function onNewsletterSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // There is no newsletter API yet: say so rather than pretend the address was saved.
    toast('Newsletter sign-up opens soon. Your address was not saved.', 'info');
  }

  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <div className="hero__copy">
            <p className="eyebrow">GA4 · Google Tag Manager · Consent mode · Cross-domain</p>
            <h1 id="hero-title">{PRODUCT.tagline}</h1>
            <p className="hero__lead">{PRODUCT.description}</p>
            <div className="hero__actions">
              {me ? (
                <AppLink to="/dashboard/lounge" className="button button--primary button--large">
                  Open your dashboard
                  <Icon name="arrow-right" size={18} />
                </AppLink>
              ) : (
                <>
                  <AppLink to="/register" className="button button--primary button--large">
                    Create a free account
                    <Icon name="arrow-right" size={18} />
                  </AppLink>
                  <AppLink to="/login" className="button button--large">
                    Sign in
                  </AppLink>
                </>
              )}
            </div>
            <ul className="hero__facts">
              <li>
                <Icon name="check" size={18} /> The four web tools are free with an account
              </li>
              <li>
                <Icon name="check" size={18} /> HAR files and logs never leave your browser
              </li>
            </ul>
          </div>
          <figure className="hit-preview">
            <div className="hit-preview__bar">
              <span className="hit-preview__method">POST</span>
              <code>/g/collect?v=2</code>
              <span className="badge hit-preview__badge">GA4</span>
            </div>
            <dl className="hit-preview__params">
              {HERO_EXAMPLE.map((row) => (
                <div className="hit-preview__row" key={row.key}>
                  <dt>
                    <code>{row.key}</code>
                  </dt>
                  <dd>
                    <code>{row.value}</code>
                    <span className="hit-preview__note">{row.note}</span>
                  </dd>
                </div>
              ))}
            </dl>
            <p className="hit-preview__warning">
              <strong>Warning:</strong> page_view sent twice in the same page load
            </p>
            <figcaption>Example: one GA4 hit from a HAR file, as the HAR analyser shows it.</figcaption>
          </figure>
        </div>
      </section>

      <section className="section" aria-labelledby="tools-title">
        <div className="container">
          <header className="section__header">
            <p className="eyebrow">The workbench</p>
            <h2 id="tools-title">Four tools for the questions you ask every week</h2>
            <p>
              Why is this hit missing its consent state? Why did the session break at the checkout domain? Will GA4 accept this payload?
              Each tool answers one of them, with the evidence.
            </p>
          </header>
          <ul className="feature-grid">
            {TOOLS.map((tool) => {
              const details = TOOL_DETAILS[tool.slug];
              return (
                <li className="card feature-card" key={tool.slug}>
                  <span className="icon-chip">
                    <Icon name={details.icon} size={22} />
                  </span>
                  <h3>{tool.name}</h3>
                  <p className="muted">{tool.summary}</p>
                  <ul className="check-list">
                    {details.points.map((point) => (
                      <li key={point}>
                        <Icon name="check" size={18} />
                        <span>{point}</span>
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="how-title">
        <div className="container">
          <header className="section__header">
            <p className="eyebrow">How it works</p>
            <h2 id="how-title">From a broken report to the hit that caused it</h2>
          </header>
          <ol className="steps">
            {STEPS.map((step) => (
              <li className="steps__item" key={step.title}>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
          <ul className="reasons">
            {REASONS.map((reason) => (
              <li className="reasons__item" key={reason.title}>
                <span className="icon-chip icon-chip--small">
                  <Icon name={reason.icon} size={18} />
                </span>
                <div>
                  <h3>{reason.title}</h3>
                  <p className="muted">{reason.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="pricing-title">
        <div className="container">
          <header className="section__header">
            <p className="eyebrow">Pricing</p>
            <h2 id="pricing-title">One licence, both companion products</h2>
            <p>
              Every plan includes {COMPANION_PRODUCTS.apps.name}, the {COMPANION_PRODUCTS.apps.kind}, and {COMPANION_PRODUCTS.browsers.name}
              , the {COMPANION_PRODUCTS.browsers.kind}. Prices are in euros per month; cancel at the end of any billing period.
            </p>
          </header>
          <ul className="pricing">
            {PRICING.map((plan) => {
              const featured = plan.id === 'team';
              return (
                <li key={plan.id} className={`card plan${featured ? ' plan--featured' : ''}`}>
                  <div className="plan__head">
                    <h3>{plan.name}</h3>
                    {featured ? <span className="badge badge--accent">Recommended</span> : null}
                  </div>
                  <p className="plan__price">
                    <span className="plan__amount">€{plan.monthlyPrice}</span>
                    <span className="plan__period">per month</span>
                  </p>
                  <p className="plan__seats muted">{plan.seats === 1 ? 'For one person' : `For teams of up to ${plan.seats} people`}</p>
                  <ul className="check-list">
                    {plan.features.map((feature) => (
                      <li key={feature}>
                        <Icon name="check" size={18} />
                        <span>{feature}</span>
                      </li>
                    ))}
                  </ul>
                  <AppLink to={pricingTarget} className={`button button--block${featured ? ' button--primary' : ''}`}>
                    Choose {plan.name}
                  </AppLink>
                </li>
              );
            })}
          </ul>
          <p className="pricing__note muted">
            The GA4 Measurement Protocol workbench, the Google tag linker and both analysers in the dashboard stay free.
          </p>
        </div>
      </section>

      <section className="section section--alt" aria-labelledby="newsletter-title">
        <div className="container newsletter">
          <div className="newsletter__copy">
            <span className="icon-chip">
              <Icon name="mail" size={22} />
            </span>
            <h2 id="newsletter-title">Release notes and tracking fixes, by e-mail</h2>
            <p className="muted">
              New versions of both products, GA4 and consent-mode changes that break tracking, and the fix. Double opt-in: you confirm from
              your inbox before we send anything, and every e-mail has a one-click unsubscribe link.
            </p>
          </div>
          <form className="form newsletter__form" onSubmit={onNewsletterSubmit}>
            <div className="field">
              <label htmlFor={emailId}>E-mail address</label>
              <input id={emailId} name="email" type="email" autoComplete="email" required placeholder="you@example.com" />
            </div>
            <label className="checkbox" htmlFor={consentId}>
              <input id={consentId} name="consent" type="checkbox" required />
              <span>
                Send me the {PRODUCT.name} newsletter. I have read the <AppLink to="/privacy-policy">privacy policy</AppLink>.
              </span>
            </label>
            <button type="submit" className="button button--primary">
              Subscribe
            </button>
          </form>
        </div>
      </section>

      <section className="section" aria-labelledby="cta-title">
        <div className="container">
          <div className="cta-band">
            <div>
              <h2 id="cta-title">Your next tracking bug is already in a HAR file</h2>
              <p>Create a free account and open the tools in under a minute. No card needed.</p>
            </div>
            <div className="cta-band__actions">
              {me ? (
                <AppLink to="/dashboard/lounge" className="button button--primary button--large">
                  Open your dashboard
                </AppLink>
              ) : (
                <>
                  <AppLink to="/register" className="button button--primary button--large">
                    Start for free
                  </AppLink>
                  <AppLink to="/login" className="button button--large">
                    Sign in
                  </AppLink>
                </>
              )}
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
