import { PRODUCT } from '../../../../lib/product.js';
import { COLOR_MODE_COOKIE } from '../../../../lib/client-constants.js';
import { AppLink } from '../../../components/AppLink.js';
import { LegalBasis, LegalDocument, LegalSection } from './LegalDocument.js';

const PRIVACY_EMAIL = 'privacy@hitscope.dev';
const LAST_UPDATED = { iso: '2026-11-22', label: '22 November 2026' };

const SECTIONS = {
  summary: 'The short version',
  who: 'Who is responsible',
  data: 'What we collect and why',
  tools: 'Files you analyse in the tools',
  cookies: 'Cookies and browser storage',
  recipients: 'Who else processes your data',
  retention: 'How long we keep it',
  rights: 'Your rights',
  security: 'Security',
  changes: 'Children and changes',
  contact: 'Contact',
} as const;

/** The privacy policy of `/privacy-policy`. */
/** Every cookie the site sets (src/auth, lib/client-constants.ts): keep this list true. */
const COOKIES = [
  {
    name: 'hs_session',
    purpose: 'Keeps you signed in (renewed every 15 minutes from the next cookie).',
    lifetime: 'Until you sign out; at most 30 days',
  },
  {
    name: 'hs_refresh',
    purpose: 'Renews your sign-in without asking for your password again.',
    lifetime: 'Until you sign out; 7 days unused, 30 days at most',
  },
  {
    name: 'hs_csrf',
    purpose:
      'Proves that a form was sent from our own pages, protecting you against cross-site request forgery. Replaced when you sign in or out.',
    lifetime: 'Until you close the browser',
  },
  {
    name: 'hs_signup',
    purpose: 'Remembers a registration in progress, so that the confirmation link signs you in in the browser you registered in.',
    lifetime: '48 hours, or until the link is followed',
  },
  { name: 'hs_device', purpose: 'Remembers that this browser has signed in to your account (see below).', lifetime: '1 year' },
  {
    name: 'hs_oidc',
    purpose: 'While you sign in through your identity provider, ties its answer to this browser.',
    lifetime: '10 minutes, or until the sign-in ends',
  },
  {
    name: COLOR_MODE_COOKIE,
    purpose: 'Remembers whether you chose the light, dark or system colour mode, so pages render in it at once.',
    lifetime: '1 year',
  },
] as const;

export function PrivacyPolicy() {
  return (
    <LegalDocument title="Privacy policy" updated={LAST_UPDATED} sections={SECTIONS}>
      <LegalSection id="summary" title={SECTIONS.summary}>
        <ul>
          <li>We collect what we need to run your account, your licences and your payments, and nothing to sell or to advertise with.</li>
          <li>HAR files and app logs you analyse in the tools are processed in your browser and never uploaded.</li>
          <li>
            Our own analytics use no cookies and store no IP addresses; visitors are counted with a hash whose salt changes every day.
          </li>
          <li>
            We only set cookies that the site needs to work, plus one that remembers your colour mode. There is no cookie banner because
            there is nothing to consent to.
          </li>
          <li>You can export all your data and delete your account yourself, from your profile.</li>
        </ul>
      </LegalSection>

      <LegalSection id="who" title={SECTIONS.who}>
        <p>
          {PRODUCT.name} (“we”, “us”) runs this website, the dashboard tools and the licence service for {PRODUCT.name} for Apps and{' '}
          {PRODUCT.name} for Browsers. We are the controller of the personal data described here under the EU General Data Protection
          Regulation (GDPR). For anything about your data, write to <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>.
        </p>
      </LegalSection>

      <LegalSection id="data" title={SECTIONS.data}>
        <h3>Your account</h3>
        <p>
          When you register we store your name, your e-mail address and your password. The password is never stored as you typed it: we keep
          only an argon2id hash, from which the password cannot be recovered. We also store your role, whether your e-mail address is
          verified, your colour-mode preference, your newsletter choice and, if you upload one, your avatar. If you sign in through an
          OpenID Connect provider, we receive your name, e-mail address and an account identifier from that provider instead of a password.
        </p>
        <LegalBasis>performance of our contract with you (Art. 6(1)(b) GDPR).</LegalBasis>

        <h3>Sessions</h3>
        <p>
          When you sign in we create a session: a random identifier kept in a cookie in your browser and a matching record on our server,
          with the time it was created and when it expires. Sessions keep you signed in; when you sign out, or an administrator revokes a
          session, the record is ended on the server.
        </p>
        <LegalBasis>
          performance of our contract (Art. 6(1)(b)) and our legitimate interest in keeping accounts secure (Art. 6(1)(f)).
        </LegalBasis>

        <h3>What you save in the tools</h3>
        <p>
          The GA4 Measurement Protocol workbench keeps a history of the payloads you compose, so you can return to them. When you choose to
          send a payload to GA4’s debug or collection endpoint, our server forwards it to Google on your behalf; what it contains is up to
          you.
        </p>
        <LegalBasis>performance of our contract (Art. 6(1)(b)).</LegalBasis>

        <h3>Licences, orders and payments</h3>
        <p>
          For the companion products we store your orders (date, product, plan, amount, currency, status), your subscription (plan, status,
          renewal or end date), your licence keys and the devices you activate them on (the device name you give, its platform and when it
          was last seen). Payments are handled by Stripe: your card details go directly to Stripe and never reach our servers. We receive
          from Stripe the payment status and the identifiers we need to link a payment to your account.
        </p>
        <LegalBasis>
          performance of our contract (Art. 6(1)(b)), and our legal obligation to keep accounting records (Art. 6(1)(c)).
        </LegalBasis>

        <h3>Newsletter</h3>
        <p>
          If you subscribe (on the home page, when you register or in your profile), we store your e-mail address, its status (pending,
          confirmed, unsubscribed, or bounced and complained when your mail server refuses our mail or you report it as spam) and, as proof
          of your consent, where you signed up, the dates of your sign-up, confirmation and unsubscription, the version of the consent text
          you agreed to and a keyed hash of your IP address (never the address itself). Sign-up uses double opt-in: nothing is sent until
          you press the button behind the link in the e-mail we send you, and we send at most one such e-mail per address every 10 minutes
          and three a day. Every newsletter has a one-click unsubscribe link, and you can also switch it off in your profile. Unsubscribed
          addresses stay on a suppression list so that we never write to them again unless you subscribe and confirm anew.
        </p>
        <LegalBasis>your consent (Art. 6(1)(a)), which you can withdraw at any time without affecting what was sent before.</LegalBasis>

        <h3>E-mails we send you</h3>
        <p>
          We send the e-mails your account needs: address verification, password reset, receipts and notices about your licences or
          subscription. They are delivered through an SMTP e-mail provider, which receives your address and the content of the message in
          order to deliver it.
        </p>
        <LegalBasis>performance of our contract (Art. 6(1)(b)).</LegalBasis>

        <h3>Site analytics</h3>
        <p>
          We count page views, referrers, sign-ups and tool usage with our own, first-party analytics, without cookies and without
          third-party scripts. To count unique visitors without tracking anyone, we compute a hash of your IP address, your browser’s user
          agent and a random salt that is replaced every day. Only the hash is stored; your IP address is not. Because the salt is discarded
          daily, yesterday’s hashes cannot be linked to today’s, to you or to any other website.
        </p>
        <LegalBasis>
          our legitimate interest in knowing which pages and tools are used, so we can improve them (Art. 6(1)(f)). You can object at any
          time by writing to us.
        </LegalBasis>

        <h3>Delivering the site</h3>
        <p>
          Like every website, our servers receive your IP address and browser details with each request. They are used to answer the request
          and to protect the service against abuse, such as repeated failed sign-ins, and are not used to build profiles.
        </p>
        <LegalBasis>our legitimate interest in a secure, working service (Art. 6(1)(f)).</LegalBasis>

        <h3>Sponsorship</h3>
        <p>
          If you write to us about sponsoring {PRODUCT.name}, we use your e-mail and what you tell us to answer, and list you as a sponsor
          only in the way you agree to.
        </p>
      </LegalSection>

      <LegalSection id="tools" title={SECTIONS.tools}>
        <p>
          HAR files dropped into the {PRODUCT.name} for Browsers analyser and app logs pasted into the {PRODUCT.name} for Apps analyser are
          read and decoded by code running in your browser. They are never uploaded to our servers and we never see them. HAR files often
          contain cookies, tokens and the personal data of the site’s visitors; keeping them on your machine means they stay under your
          control and your client’s.
        </p>
      </LegalSection>

      <LegalSection id="cookies" title={SECTIONS.cookies}>
        <p>
          We set only first-party cookies, none of them for advertising or analytics. All of them are httpOnly (page scripts cannot read
          them) and SameSite=Lax, and Secure whenever the site is served over https.
        </p>
        <div className="table-wrap policy__table">
          <table className="table table--stack">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Purpose</th>
                <th scope="col">Lifetime</th>
              </tr>
            </thead>
            <tbody>
              {COOKIES.map((cookie) => (
                <tr key={cookie.name}>
                  <th scope="row">
                    <code>{cookie.name}</code>
                  </th>
                  <td data-label="Purpose">{cookie.purpose}</td>
                  <td data-label="Lifetime">{cookie.lifetime}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          Each of them is strictly necessary for a service you asked for (signing in, keeping your account safe) or only stores a choice you
          made, so none of them needs consent. The device cookie holds a code derived from your account, not your address or any identifier
          of you, and exists so that strangers guessing passwords elsewhere cannot lock you out. We also keep a timestamp in your browser’s
          session storage to avoid reload loops after we publish a new version; it is deleted when you close the tab.
        </p>
      </LegalSection>

      <LegalSection id="recipients" title={SECTIONS.recipients}>
        <p>
          We do not sell your data or share it for advertising. These providers process it on our behalf, under data processing agreements:
        </p>
        <ul>
          <li>
            <strong>Hosting, database and file storage providers</strong>, which run our servers and store the data described above.
          </li>
          <li>
            <strong>Stripe</strong> (Stripe Payments Europe, Ltd., Ireland), for payments, invoices and the billing portal. Stripe is also a
            controller for some payment data; see its own privacy policy.
          </li>
          <li>
            <strong>Our SMTP e-mail provider</strong>, to deliver account e-mails and the newsletter.
          </li>
          <li>
            <strong>Google</strong>, only when you choose to send a Measurement Protocol payload from the workbench to GA4.
          </li>
          <li>
            <strong>Your OpenID Connect provider</strong>, only if you choose to sign in with it.
          </li>
        </ul>
        <p>
          Where a provider processes data outside the European Economic Area, the transfer is covered by an adequacy decision such as the
          EU–US Data Privacy Framework, or by the European Commission’s Standard Contractual Clauses. Our administrators can see account,
          order, licence and subscription data in order to support you.
        </p>
      </LegalSection>

      <LegalSection id="retention" title={SECTIONS.retention}>
        <ul>
          <li>
            <strong>Account, profile and tool history:</strong> as long as your account exists. When you delete your account they are
            deleted, and they disappear from our backups within 30 days.
          </li>
          <li>
            <strong>Sessions:</strong> deleted when you sign out or when they expire.
          </li>
          <li>
            <strong>Licence activations:</strong> until you deactivate a device, or your account is deleted.
          </li>
          <li>
            <strong>Orders and invoices:</strong> as long as tax and accounting law requires, usually up to 10 years, even after you delete
            your account.
          </li>
          <li>
            <strong>Newsletter:</strong> unconfirmed sign-ups are deleted after 30 days. After you unsubscribe we keep your address marked
            as unsubscribed, with the dates, so we never write to you again and can show that we had your consent; ask us and we delete it
            entirely.
          </li>
          <li>
            <strong>Site analytics:</strong> page-view records (which contain no IP address and no cookie) for 13 months; after that only
            aggregated counts remain.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="rights" title={SECTIONS.rights}>
        <p>Under the GDPR you have the right to:</p>
        <ul>
          <li>get a copy of your data (access and portability);</li>
          <li>correct data that is wrong;</li>
          <li>have your data deleted;</li>
          <li>restrict or object to processing based on our legitimate interests;</li>
          <li>withdraw your consent, for example to the newsletter, at any time.</li>
        </ul>
        <p>
          You do not need to ask us for the most common ones. In your <AppLink to="/dashboard/user/profile">profile</AppLink> you can
          correct your name and e-mail address, export all your data as a JSON file, change your newsletter choice and delete your account.
          For anything else, write to <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>; we answer within one month.
        </p>
        <p>
          You also have the right to lodge a complaint with a data protection supervisory authority, in particular in the EU country where
          you live or work.
        </p>
      </LegalSection>

      <LegalSection id="security" title={SECTIONS.security}>
        <p>
          All traffic is encrypted with HTTPS. Passwords are stored only as argon2id hashes. Session cookies are httpOnly, so scripts on the
          page cannot read them, and SameSite=Lax, so other sites cannot use them to act on your behalf. Access to the admin area is limited
          to administrators, and every request to our API is checked on the server, independently of what the page shows.
        </p>
      </LegalSection>

      <LegalSection id="changes" title={SECTIONS.changes}>
        <p>{PRODUCT.name} is a professional tool and is not meant for children under 16; we do not knowingly collect their data.</p>
        <p>
          When this policy changes, we update the date at the top of this page. If a change affects how we use data you have already given
          us, we tell account holders by e-mail before it takes effect.
        </p>
      </LegalSection>

      <LegalSection id="contact" title={SECTIONS.contact}>
        <p>
          Questions, requests or complaints about your data: <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>.
        </p>
      </LegalSection>
    </LegalDocument>
  );
}
