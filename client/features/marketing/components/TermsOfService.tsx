import { PRICING } from '../../../../lib/pricing.js';
import { COMPANION_PRODUCTS, PRODUCT } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { LegalDocument, LegalSection } from './LegalDocument.js';

const LEGAL_EMAIL = 'legal@hitscope.dev';
const LAST_UPDATED = { iso: '2026-11-22', label: '22 November 2026' };

const SECTIONS = {
  summary: 'The short version',
  agreement: 'Who we are and what these terms cover',
  account: 'Your account',
  tools: 'The web tools',
  licences: 'Licences for the companion products',
  payment: 'Plans, prices and payment',
  cancellation: 'Cancelling, refunds and withdrawal',
  use: 'Acceptable use',
  content: 'Your data and your content',
  availability: 'Availability and changes to the service',
  liability: 'Warranty and liability',
  ending: 'Ending the agreement',
  changes: 'Changes to these terms',
  law: 'Applicable law and disputes',
  contact: 'Contact',
} as const;

const { apps, browsers } = COMPANION_PRODUCTS;
const seats = PRICING.map((plan) => `${plan.name} ${plan.seats === 1 ? '1 seat' : `${plan.seats} seats`}`).join(', ');

/** The terms of service of `/terms`. */
export function TermsOfService() {
  return (
    <LegalDocument title="Terms of service" updated={LAST_UPDATED} sections={SECTIONS}>
      <LegalSection id="summary" title={SECTIONS.summary}>
        <ul>
          <li>
            The four web tools in the dashboard are free with an account. What you pay for is a licence for {apps.name}, our {apps.kind},
            and {browsers.name}, our {browsers.kind}.
          </li>
          <li>A plan is billed monthly in advance and renews until you cancel it; you can cancel at the end of any billing period.</li>
          <li>A licence is for the number of people your plan names (its seats), not for a whole company, and it cannot be resold.</li>
          <li>
            Use the tools for your own and your clients’ tracking work. Do not attack the service, get around licence checks, or send data
            through it that you have no right to send.
          </li>
          <li>
            The tools help you find tracking problems; they do not guarantee that your analytics are correct. Check what matters before you
            rely on it.
          </li>
          <li>You can delete your account yourself, at any time, from your profile.</li>
        </ul>
      </LegalSection>

      <LegalSection id="agreement" title={SECTIONS.agreement}>
        <p>
          {PRODUCT.name} (“we”, “us”) runs this website, the dashboard and its tools, and the licence service for {apps.name} and{' '}
          {browsers.name}. These terms are the agreement between us and you, the person or organisation that creates an account (“you”). If
          you accept them on behalf of an organisation, you confirm that you may bind it, and “you” means that organisation.
        </p>
        <p>
          By creating an account you accept these terms. How we handle personal data is described in our{' '}
          <AppLink to="/privacy-policy">privacy policy</AppLink>, which is not part of this agreement but explains what we do with what you
          give us.
        </p>
      </LegalSection>

      <LegalSection id="account" title={SECTIONS.account}>
        <p>
          {PRODUCT.name} is a professional tool: you must be at least 16 years old to use it. Give a real name and an e-mail address you can
          read, and keep them up to date in your profile; we send account, licence and billing notices there.
        </p>
        <p>
          An account is for one person. Keep your password to yourself; if you sign in through an identity provider, the security of that
          account is part of the security of yours. Tell us at once if you think someone else has used your account. You are responsible for
          what is done with your account until you tell us.
        </p>
      </LegalSection>

      <LegalSection id="tools" title={SECTIONS.tools}>
        <p>
          The GA4 Measurement Protocol workbench, the Google tag linker and the HAR and app-log analysers are free for everyone with an
          account. We may limit how often they can be used, to keep the service fast for everyone, but we will not turn them into a paid
          feature for existing accounts without telling you at least 30 days in advance.
        </p>
        <p>
          HAR files and app logs are analysed in your browser and never uploaded. When you send a Measurement Protocol payload to GA4 from
          the workbench, our server forwards it to Google on your behalf: you must be allowed to send data to that GA4 property, and what
          the payload contains is your responsibility.
        </p>
      </LegalSection>

      <LegalSection id="licences" title={SECTIONS.licences}>
        <p>
          A paid plan gives you a licence to install and use {apps.name} and {browsers.name} for as long as the plan is paid. The licence is
          personal to your account, non-exclusive and non-transferable. Each plan has a number of seats ({seats}): a seat is one person who
          uses the products, and each of them may activate the licence key on the devices they work on. You can see and deactivate activated
          devices on your licences page.
        </p>
        <p>
          The software stays ours. You may not sell, rent or sublicense it, share a licence key beyond your seats, or remove or get around
          its licence checks. You may not decompile or reverse-engineer it, except where the law allows it regardless of this clause. We
          ship updates for both products while your plan is active; an update may change how a feature works, but it will not take away what
          your plan includes during a period you have paid for.
        </p>
      </LegalSection>

      <LegalSection id="payment" title={SECTIONS.payment}>
        <p>
          Prices are shown on our <AppLink to="/">home page</AppLink> in euros per month. Where VAT or another sales tax applies, it is
          added at checkout according to where you are and whether you buy as a business. Payments are handled by Stripe; we never see your
          card details.
        </p>
        <p>
          A plan is billed in advance for each month and renews automatically until you cancel it. If a payment fails, we will tell you and
          try again; if it still fails after 14 days, the licence is paused until the plan is paid. We may change the price of a plan: we
          tell you at least 30 days before your next renewal, and you can cancel before the new price applies.
        </p>
      </LegalSection>

      <LegalSection id="cancellation" title={SECTIONS.cancellation}>
        <p>
          You can cancel a plan at any time from your subscription page. It then runs to the end of the period you have paid for and is not
          renewed; the licence stops working when that period ends. Your account and the free web tools stay available.
        </p>
        <p>
          If you are a consumer in the European Union or the United Kingdom, you may withdraw from a purchase within 14 days without giving
          a reason. Because your licence key and downloads are available straight away, we ask at checkout whether you want the plan to
          start at once and whether you accept that you then lose this right once the licence has been delivered. If you did not, write to
          us within 14 days and we refund you in full.
        </p>
        <p>
          Apart from that, and from refunds the law requires, periods already paid for are not refunded. When we end the agreement without a
          breach on your part, or take away something your plan includes, we refund the unused part of the period.
        </p>
      </LegalSection>

      <LegalSection id="use" title={SECTIONS.use}>
        <p>Do not use {PRODUCT.name} to:</p>
        <ul>
          <li>break the law, or send personal data through the workbench that you have no right to process or pass on to Google;</li>
          <li>attack, overload or probe the service, or get around its rate limits, access controls or licence checks;</li>
          <li>read or change data that is not yours, or pretend to be someone else;</li>
          <li>resell the web tools, or offer them to others as part of your own service without our written agreement;</li>
          <li>copy the service or the products, or use them to build a competing product.</li>
        </ul>
        <p>
          Testing the security of your own account is welcome: report what you find to <a href={`mailto:${LEGAL_EMAIL}`}>{LEGAL_EMAIL}</a>{' '}
          before you publish it, and do not touch other people’s data.
        </p>
      </LegalSection>

      <LegalSection id="content" title={SECTIONS.content}>
        <p>
          What you put into the tools (payloads, URLs, cookie values, your workbench history) stays yours. You give us the right to store
          and process it only to run the service for you, as the <AppLink to="/privacy-policy">privacy policy</AppLink> describes. We do not
          use it for anything else, and it is deleted with your account.
        </p>
        <p>
          If you give us feedback or suggestions, we may use them to improve {PRODUCT.name} without owing you anything for it; we will not
          name you without asking.
        </p>
      </LegalSection>

      <LegalSection id="availability" title={SECTIONS.availability}>
        <p>
          We work to keep {PRODUCT.name} available and fast, but we cannot promise that it will never be interrupted: maintenance, updates
          and problems outside our control (hosting providers, Google’s endpoints, your identity provider) can get in the way. Planned
          maintenance that takes the service down is announced in the dashboard beforehand where we can.
        </p>
        <p>
          Google changes GA4, the Google tag and consent mode regularly, and the tools follow. We may change, replace or retire features of
          the web tools; for the paid products, the promise under “Licences for the companion products” applies.
        </p>
      </LegalSection>

      <LegalSection id="liability" title={SECTIONS.liability}>
        <p>
          The tools decode and check tracking data against the rules Google documents. They are aids for your own judgement: we do not
          guarantee that a payload they accept will be processed by Google, that a warning is always right, or that your reports are
          correct. Beyond what the law requires, the service and the products are provided as they are.
        </p>
        <p>
          We are fully liable for damage we cause intentionally or through gross negligence, for injury to life, body or health, and where
          the law does not allow liability to be limited. Otherwise our liability is limited to the damage that is typical and foreseeable
          for this kind of agreement, and in total to the amount you paid us in the 12 months before the event; for free use of the web
          tools, it is excluded as far as the law allows. We are not liable for lost profits, lost data you could have kept a copy of, or
          decisions made on the basis of analytics data.
        </p>
      </LegalSection>

      <LegalSection id="ending" title={SECTIONS.ending}>
        <p>
          You can end the agreement at any time by deleting your account in your profile; a paid plan ends with it, without a refund of the
          current period unless the cancellation section says otherwise.
        </p>
        <p>
          We may suspend or close an account that seriously or repeatedly breaks these terms, after a warning where one is reasonable, and
          straight away where it is needed to protect the service or other people. We may also end the agreement for any reason with 30
          days’ notice by e-mail, refunding what you paid for the time after it ends. When an account is closed, its licences stop working
          and its data is deleted as the privacy policy describes.
        </p>
      </LegalSection>

      <LegalSection id="changes" title={SECTIONS.changes}>
        <p>
          When these terms change, we update the date at the top of this page. If a change affects you to your disadvantage, we e-mail you
          at least 30 days before it takes effect; if you do not agree, you can cancel your plan or delete your account before then, and we
          refund the unused part of a paid period.
        </p>
      </LegalSection>

      <LegalSection id="law" title={SECTIONS.law}>
        <p>
          These terms are governed by the law of the country in which {PRODUCT.name} is established, without the UN Convention on Contracts
          for the International Sale of Goods. If you are a consumer, you keep the protection of the mandatory law of the country where you
          live, and you may bring a claim in its courts.
        </p>
        <p>
          If a clause of these terms turns out to be invalid, the rest still applies. Before going to court, please write to us: most
          problems are solved faster that way.
        </p>
      </LegalSection>

      <LegalSection id="contact" title={SECTIONS.contact}>
        <p>
          Questions about these terms, your licence or an invoice: <a href={`mailto:${LEGAL_EMAIL}`}>{LEGAL_EMAIL}</a>.
        </p>
      </LegalSection>
    </LegalDocument>
  );
}
