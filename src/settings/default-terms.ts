import { type TermsSettings, WITHDRAWAL_SECTION_ID } from '../../lib/api/site-settings.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';

const { apps, browsers } = COMPANION_PRODUCTS;

/**
 * The terms of a fresh install. Everything that depends on what is sold or on whom to write to is a
 * placeholder (lib/legal/placeholders.ts), filled in from the catalogue and the settings whenever
 * the page is rendered, so these words stay true when an administrator changes a plan, a price or
 * an address. Section ids are named (`{#…}`) so that links to them survive rewording;
 * `#withdrawal` is where Stripe Checkout's consent text points. Admins replace the text in
 * /admin/settings; until then it is shown without a "last updated" date of its own.
 */
export const DEFAULT_TERMS: TermsSettings = {
  markdown: `## The short version {#summary}

- The four web tools in the dashboard are free with an account. What you pay for is a licence for ${apps.name}, our ${apps.kind}, and ${browsers.name}, our ${browsers.kind}: one or both, as your plan says.
- {{billing}} You can cancel a subscription at the end of any billing period.
- A licence is for the number of people your plan names (its seats), not for a whole company, and it cannot be resold.
- If you buy as a consumer in the EU or the UK, you have a right of withdrawal; at checkout you choose to have your licence delivered at once, which ends it. See [Right of withdrawal](#${WITHDRAWAL_SECTION_ID}).
- Use the tools for your own and your clients’ tracking work. Do not attack the service, get around licence checks, or send data through it that you have no right to send.
- The tools help you find tracking problems; they do not guarantee that your analytics are correct. Check what matters before you rely on it.
- You can delete your account yourself, at any time, from your profile.

## Who we are and what these terms cover {#agreement}

{{siteName}} (“we”, “us”) runs this website, the dashboard and its tools, and the licence service for ${apps.name} and ${browsers.name}. These terms are the agreement between us and you, the person or organisation that creates an account (“you”). If you accept them on behalf of an organisation, you confirm that you may bind it, and “you” means that organisation.

By creating an account you accept these terms. How we handle personal data is described in our [privacy policy](/privacy-policy), which is not part of this agreement but explains what we do with what you give us.

## Your account {#account}

{{siteName}} is a professional tool: you must be at least 16 years old to use it. Give a real name and an e-mail address you can read, and keep them up to date in your profile; we send account, licence and billing notices there.

An account is for one person. Keep your password to yourself; if you sign in through an identity provider, the security of that account is part of the security of yours. Tell us at once if you think someone else has used your account. You are responsible for what is done with your account until you tell us.

## The web tools {#tools}

The GA4 Measurement Protocol workbench, the Google tag linker and the HAR and app-log analysers are free for everyone with an account. We may limit how often they can be used, to keep the service fast for everyone, but we will not turn them into a paid feature for existing accounts without telling you at least 30 days in advance.

HAR files and app logs are analysed in your browser and never uploaded. When you send a Measurement Protocol payload to GA4 from the workbench, our server forwards it to Google on your behalf: you must be allowed to send data to that GA4 property, and what the payload contains is your responsibility.

## Licences for the companion products {#licences}

A plan gives you a licence to install and use the companion products it names: for as long as its subscription is paid, or without an end date for a one-off plan. The licence is personal to your account, non-exclusive and non-transferable. Each plan has a number of seats ({{seats}}): a seat is one person who uses the products, and each of them may activate the licence key on the devices they work on. You can see and deactivate activated devices on your licences page.

The software stays ours. You may not sell, rent or sublicense it, share a licence key beyond your seats, or remove or get around its licence checks. You may not decompile or reverse-engineer it, except where the law allows it regardless of this clause. We ship updates for the products your licence covers while it is valid; an update may change how a feature works, but it will not take away what your plan includes during a period you have paid for.

## Plans, prices and payment {#payment}

The plans on sale, with their prices in {{currencies}}:

{{plans}}

The same plans and prices are on our [home page](/). Where VAT or another sales tax applies, it is added at checkout according to where you are and whether you buy as a business. Payments are handled by Stripe; we never see your card details.

{{billing}} If a renewal payment fails, we tell you and Stripe tries again; your licence keeps working for {{graceDays}} days after the renewal date, and is paused after that until the payment succeeds. We may change the price of a plan: we tell you at least 30 days before your next renewal, and you can cancel before the new price applies.

## Right of withdrawal {#${WITHDRAWAL_SECTION_ID}}

If you are a consumer in the European Union or the United Kingdom, you may withdraw from a purchase within 14 days of making it, without giving a reason. This applies to a one-off plan and to the first payment of a subscription; the renewals of a subscription are not new purchases (you can cancel those at any time, as below).

A licence is digital content that we deliver at once: your licence key and the downloads are ready as soon as the payment is confirmed. So before you pay, Stripe Checkout asks you to agree to these terms and to confirm that you want your licence delivered straight away, and that you know you lose your right of withdrawal once it has been delivered. A purchase cannot be completed without that confirmation.

If the licence has not been delivered yet (for example while a payment is still being processed), you can still withdraw: write to {{legalEmail}} within 14 days of the purchase, with a clear statement that you withdraw, and we refund you in full within 14 days, through the payment method you used.

## Cancelling and refunds {#cancellation}

You can cancel a subscription at any time from your subscription page. It then runs to the end of the period you have paid for and is not renewed; the licence stops working when that period ends. Your account and the free web tools stay available.

Apart from the right of withdrawal above and refunds the law requires, periods already paid for are not refunded. When we end the agreement without a breach on your part, or take away something your plan includes, we refund the unused part of the period.

## Acceptable use {#use}

Do not use {{siteName}} to:

- break the law, or send personal data through the workbench that you have no right to process or pass on to Google;
- attack, overload or probe the service, or get around its rate limits, access controls or licence checks;
- read or change data that is not yours, or pretend to be someone else;
- resell the web tools, or offer them to others as part of your own service without our written agreement;
- copy the service or the products, or use them to build a competing product.

Testing the security of your own account is welcome: report what you find to {{legalEmail}} before you publish it, and do not touch other people’s data.

## Your data and your content {#content}

What you put into the tools (payloads, URLs, cookie values, your workbench history) stays yours. You give us the right to store and process it only to run the service for you, as the [privacy policy](/privacy-policy) describes. We do not use it for anything else, and it is deleted with your account.

If you give us feedback or suggestions, we may use them to improve {{siteName}} without owing you anything for it; we will not name you without asking.

## Availability and changes to the service {#availability}

We work to keep {{siteName}} available and fast, but we cannot promise that it will never be interrupted: maintenance, updates and problems outside our control (hosting providers, Google’s endpoints, your identity provider) can get in the way. Planned maintenance that takes the service down is announced in the dashboard beforehand where we can.

Google changes GA4, the Google tag and consent mode regularly, and the tools follow. We may change, replace or retire features of the web tools; for the paid products, the promise under “Licences for the companion products” applies.

## Warranty and liability {#liability}

The tools decode and check tracking data against the rules Google documents. They are aids for your own judgement: we do not guarantee that a payload they accept will be processed by Google, that a warning is always right, or that your reports are correct. Beyond what the law requires, the service and the products are provided as they are.

We are fully liable for damage we cause intentionally or through gross negligence, for injury to life, body or health, and where the law does not allow liability to be limited. Otherwise our liability is limited to the damage that is typical and foreseeable for this kind of agreement, and in total to the amount you paid us in the 12 months before the event; for free use of the web tools, it is excluded as far as the law allows. We are not liable for lost profits, lost data you could have kept a copy of, or decisions made on the basis of analytics data.

## Ending the agreement {#ending}

You can end the agreement at any time by deleting your account in your profile; a subscription ends with it, without a refund of the current period unless “Cancelling and refunds” says otherwise.

We may suspend or close an account that seriously or repeatedly breaks these terms, after a warning where one is reasonable, and straight away where it is needed to protect the service or other people. We may also end the agreement for any reason with 30 days’ notice by e-mail, refunding what you paid for the time after it ends. When an account is closed, its licences stop working and its data is deleted as the privacy policy describes.

## Changes to these terms {#changes}

When these terms change, we update the date at the top of this page. If a change affects you to your disadvantage, we e-mail you at least 30 days before it takes effect; if you do not agree, you can cancel your plan or delete your account before then, and we refund the unused part of a paid period.

## Applicable law and disputes {#law}

These terms are governed by the law of the country in which {{siteName}} is established, without the UN Convention on Contracts for the International Sale of Goods. If you are a consumer, you keep the protection of the mandatory law of the country where you live, and you may bring a claim in its courts.

If a clause of these terms turns out to be invalid, the rest still applies. Before going to court, please write to us: most problems are solved faster that way.

## Contact {#contact}

Questions about these terms, your licence or an invoice: {{legalEmail}}. About your personal data: {{privacyEmail}}.
`,
};
