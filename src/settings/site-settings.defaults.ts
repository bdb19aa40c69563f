import type {
  AnnouncementSettings,
  ContactSettings,
  GeneralSettings,
  PrivacySettings,
  RegistrationSettings,
  SponsorsSettings,
} from '../../lib/api/site-settings.js';
import { COLOR_MODE_COOKIE } from '../../lib/client-constants.js';
import { PRODUCT } from '../../lib/product.js';
import { ANNOUNCEMENT_DISMISSED_COOKIE } from '../../lib/api/site-settings.js';

/** What a fresh install shows until an admin saves a section. */
export const DEFAULT_GENERAL: GeneralSettings = { siteName: PRODUCT.name };

export const DEFAULT_REGISTRATION: RegistrationSettings = { open: true };

export const DEFAULT_ANNOUNCEMENT: AnnouncementSettings = { enabled: false, text: '', tone: 'info', linkLabel: '', linkUrl: '' };

/** The tiers the sponsor page offered before they became editable; no sponsors until there are some. */
export const DEFAULT_SPONSORS: SponsorsSettings = {
  tiers: [
    {
      id: 'supporter',
      name: 'Supporter',
      monthlyAmount: 500,
      currency: 'EUR',
      description: 'For individual analytics engineers who use the free tools and want them to stay.',
      perks: ['Your name in the sponsors list on this page', 'A thank-you in the release notes of the next version'],
    },
    {
      id: 'backer',
      name: 'Backer',
      monthlyAmount: 2500,
      currency: 'EUR',
      description: 'For freelancers and small agencies whose client work runs on these tools.',
      perks: [
        'Everything in Supporter',
        'Your logo and a link on this page',
        'A Solo licence for both companion products while you sponsor',
      ],
    },
    {
      id: 'partner',
      name: 'Partner',
      monthlyAmount: 25000,
      currency: 'EUR',
      description: 'For agencies and analytics teams that want a say in where the product goes.',
      perks: [
        'Everything in Backer',
        'A large logo at the top of this page and a mention in the newsletter',
        'A Team licence (5 seats) for both companion products',
      ],
    },
  ],
  sponsors: [],
};

/** The addresses the legal documents give until an admin sets the site's own (Contact addresses section). */
export const DEFAULT_CONTACT: ContactSettings = {
  legalEmail: `legal@${PRODUCT.slug}.dev`,
  privacyEmail: `privacy@${PRODUCT.slug}.dev`,
};

/**
 * The policy of a fresh install: it describes what this code actually stores. Admins replace it in
 * /admin/settings; until then it is shown without a "last updated" date of its own. Its contact
 * address is a placeholder, filled in from the settings (lib/legal/placeholders.ts).
 */
export const DEFAULT_PRIVACY: PrivacySettings = {
  markdown: `## The short version

- We collect what we need to run your account, your licences and your payments, and nothing to sell or to advertise with.
- HAR files and app logs you analyse in the tools are processed in your browser and never uploaded.
- Our own analytics set no cookies and never store an IP address or a user agent; only daily counts are kept.
- We only set cookies the site needs to work, plus a few that remember a choice you made. There is no cookie banner because there is nothing to consent to.
- You can export all your data and delete your account yourself, from your profile.

## Who is responsible

${PRODUCT.name} ("we", "us") runs this website, the dashboard tools and the licence service for ${PRODUCT.name} for Apps and ${PRODUCT.name} for Browsers. We are the controller of the personal data described here under the EU General Data Protection Regulation (GDPR). For anything about your data, write to {{privacyEmail}}.

## What we collect and why

### Your account

When you register we store your name, your e-mail address and an argon2id hash of your password (never the password itself), your role, whether your address is verified, your colour mode, your newsletter choice and, if you upload one, your avatar. If you sign in through an OpenID Connect provider we receive your name, e-mail address and an account identifier from it instead of a password. We also keep your sessions (when they started and expire) so that you stay signed in, and the announcement you last dismissed. *Legal basis: performance of our contract (Art. 6(1)(b) GDPR).*

### Orders, subscriptions and payments

Payments are handled by Stripe: your card details go directly to Stripe and never reach our servers. We store your orders (date, product, plan, amount, currency, status), your subscription (plan, status, renewal or end date) and the Stripe identifiers that link a payment to your account. *Legal basis: performance of our contract (Art. 6(1)(b)) and our legal obligation to keep accounting records (Art. 6(1)(c)).*

### Licences and devices

For the companion products we store your licence keys (encrypted) and the devices you activate them on: the device name you give, its platform, a fingerprint of the installation and when it was last seen. You can deactivate a device at any time in your dashboard. *Legal basis: performance of our contract (Art. 6(1)(b)).*

### What you save in the tools

The GA4 Measurement Protocol workbench keeps a history of the payloads you compose. When you choose to send a payload to GA4, our server forwards it to Google on your behalf.

### Newsletter

If you subscribe we store your e-mail address, its status (pending, confirmed, unsubscribed) and, as proof of your consent: where you signed up, the times of sign-up and confirmation, the version of the consent text you agreed to, and a keyed hash of your IP address (never the address itself). Sign-up uses double opt-in, and every newsletter has a one-click unsubscribe link. *Legal basis: your consent (Art. 6(1)(a)), which you can withdraw at any time.*

### Site analytics

We count page views, referrers, sign-ups and tool usage with our own first-party analytics: no cookies, no third-party scripts, and **no IP address or user agent is ever stored**. To count unique visitors, we compute a keyed hash of a random daily salt, your IP address, your user agent and the site; the salt is replaced at 00:00 UTC and deleted after 48 hours, so a hash cannot be linked to you or to another day. Only aggregated daily counters are kept; requests from bots are dropped. When your browser sends a Global Privacy Control or Do Not Track signal and we have enabled honouring it, you are not counted at all. *Legal basis: our legitimate interest in knowing which pages and tools are used (Art. 6(1)(f)).*

### Delivering the site

Our servers receive your IP address and browser details with each request. They are used to answer it and to protect the service against abuse (for example repeated failed sign-ins), and are not used to build profiles.

## Files you analyse in the tools

HAR files dropped into the ${PRODUCT.name} for Browsers analyser and app logs pasted into the ${PRODUCT.name} for Apps analyser are decoded by code running in your browser. They are never uploaded to our servers.

## Cookies

We set only first-party cookies, none for advertising or analytics:

| Cookie | Purpose |
| --- | --- |
| \`hs_session\`, \`hs_refresh\` | Keep you signed in |
| \`hs_csrf\` | Protects forms against cross-site request forgery |
| \`hs_signup\`, \`hs_oidc\` | Tie a registration or a provider sign-in in progress to this browser |
| \`hs_device\` | Remembers that this browser has signed in to your account |
| \`${COLOR_MODE_COOKIE}\` | Remembers your colour mode |
| \`${ANNOUNCEMENT_DISMISSED_COOKIE}\` | Remembers which announcement you closed |

## Who else processes your data

We do not sell your data. Our hosting, database and file storage providers, Stripe (payments), our SMTP e-mail provider, Google (only when you send a payload to GA4) and your OpenID Connect provider (only if you sign in with it) process data on our behalf.

## How long we keep it

- **Account, profile, licences and tool history:** as long as your account exists; deleted with it.
- **Orders and invoices:** as long as tax law requires, even after you delete your account.
- **Newsletter:** unconfirmed sign-ups are deleted; after you unsubscribe we keep your address marked as unsubscribed so we never write to you again.
- **Site analytics:** only aggregated daily counters, which contain nothing about you.

## Your rights

You have the right to access, correct, export and delete your data, to object to processing based on our legitimate interests and to withdraw your consent. Most of it you can do yourself in your [profile](/dashboard/user/profile); for anything else write to {{privacyEmail}}. You may also complain to a data protection authority.

## Changes

When this policy changes we update the date at the top of this page.
`,
};
