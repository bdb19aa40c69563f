import type { MongoClient } from 'mongodb';
import { NEWSLETTER_CONSENT, SUBSCRIBE_MESSAGE } from '../../lib/api/newsletter.js';
import { DELETE_ACCOUNT_CONFIRMATION } from '../../lib/api/profile.js';
import { PASSWORD } from '../support/e2e.js';
import { MailSuite } from '../support/mail-suite.js';
import { linkIn, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.js';

const ADMIN = 'newsletter-admin@example.test';
const CONFIRM_SUBJECT = 'Confirm your Hitscope newsletter subscription';
const CONFIRM_LINK = /http:\/\/hitscope\.test\/newsletter\/confirm\?token=[\w.-]+/;

interface SubscriberDoc {
  _id: string;
  state: string;
  consent: { source: string; at: Date; ipHash: string | null; textVersion: string };
  confirmation: { via: string; ipHash: string | null } | null;
  suppressed: { reason: string } | null;
  lastConfirmMailAt: Date | null;
  mailDayCount: number;
}

/** A header's value, unfolded (nodemailer folds a long List-Unsubscribe right after the colon). */
const header = (raw: string, name: string) =>
  new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'mi')
    .exec(raw)?.[1]
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim() ?? '';

describe('newsletter: double opt-in, one-click unsubscribe, throttle and admin list (real SMTP server, real database)', () => {
  const suite = new MailSuite();
  const { http, post } = suite;
  let sink: SmtpSink;
  let mongo: MongoClient;
  let csrf: { cookie: string; token: string };
  const subscribers = () => mongo.db().collection<SubscriberDoc>('newsletter_subscribers');
  const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;

  const subscribe = (email: string) => post('/api/newsletter/subscribe', { email, consent: true });
  const mailsTo = (email: string) => sink.received.filter((mail) => mail.to.includes(email) && mail.subject === CONFIRM_SUBJECT);
  const pathOf = (link: string) => {
    const url = new URL(link);
    return url.pathname + url.search;
  };
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

  async function confirmationMail(email: string): Promise<ReceivedMail> {
    return sink.waitFor((mail) => mail.to.includes(email) && mail.subject === CONFIRM_SUBJECT);
  }

  /** Registers and follows the link in the same browser: answers the session cookies. */
  const signedIn = (email: string) => suite.register(email, 'News Reader');

  beforeAll(async () => {
    await suite.start('newsletter', { ADMIN_EMAILS: ADMIN });
    ({ sink, mongo, csrf } = suite);
  });
  afterAll(() => suite.stop());

  it('double opt-in end to end: the mail carries RFC 8058 headers, opening the link changes nothing, the button confirms', async () => {
    const email = unique('double-opt-in');
    const answer = await subscribe(email).expect(202);
    expect(answer.body).toEqual({ message: SUBSCRIBE_MESSAGE });
    const pending = await subscribers().findOne({ _id: email });
    expect(pending).toMatchObject({ state: 'pending', consent: { source: 'home', textVersion: NEWSLETTER_CONSENT.version } });
    expect(pending!.consent.ipHash).toMatch(/^[\w-]{22}$/);

    const mail = await confirmationMail(email);
    expect(header(mail.raw, 'List-Unsubscribe')).toMatch(
      /^<http:\/\/hitscope\.test\/api\/newsletter\/unsubscribe\?token=[\w.-]+>, <mailto:no-reply@hitscope\.local\?subject=unsubscribe>$/,
    );
    expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = linkIn(mail, CONFIRM_LINK);

    // A link scanner: the page renders, the API has no GET that confirms.
    const page = await http().get(pathOf(link)).expect(200);
    expect(page.text).toContain('Confirm your subscription');
    await http()
      .get(`/api/newsletter/confirm?token=${tokenOf(link)}`)
      .expect(404);
    expect((await subscribers().findOne({ _id: email }))!.state).toBe('pending');

    const confirmed = await post('/api/newsletter/confirm', { token: tokenOf(link) }).expect(200);
    expect(confirmed.body.message).toBe('Your subscription is confirmed. Thank you!');
    const stored = await subscribers().findOne({ _id: email });
    expect(stored).toMatchObject({ state: 'confirmed', confirmation: { via: 'link' }, suppressed: null });
    // No raw IP anywhere in the document (supertest connects from loopback).
    expect(JSON.stringify(stored)).not.toMatch(/127\.0\.0\.1|::1/);
    // Confirming again is fine; a forged or cross-purpose token is not.
    await post('/api/newsletter/confirm', { token: tokenOf(link) }).expect(200);
    const forged = `${tokenOf(link).split('.')[0]}.AAAA${tokenOf(link).split('.')[1].slice(4)}`;
    const refused = await post('/api/newsletter/confirm', { token: forged }).expect(400);
    expect(refused.body.code).toBe('NEWSLETTER_INVALID_LINK');
  });

  it("a scanner's GET of the unsubscribe URL changes nothing; a one-click POST without cookies unsubscribes and suppresses", async () => {
    const email = unique('one-click');
    await subscribe(email).expect(202);
    const mail = await confirmationMail(email);
    await post('/api/newsletter/confirm', { token: tokenOf(linkIn(mail, CONFIRM_LINK)) }).expect(200);
    const unsubscribeUrl = /<(http:\/\/hitscope\.test\/api\/newsletter\/unsubscribe\?token=[\w.-]+)>/.exec(
      header(mail.raw, 'List-Unsubscribe'),
    )![1];

    const scanned = await http().get(pathOf(unsubscribeUrl)).expect(303);
    expect(scanned.headers.location).toMatch(/^\/newsletter\/unsubscribe\?token=/);
    await http()
      .get(scanned.headers.location as string)
      .expect(200);
    expect((await subscribers().findOne({ _id: email }))!.state).toBe('confirmed');

    // What Gmail or Yahoo send (RFC 8058 §3.1): a form POST, no cookie, no CSRF token, no Origin of ours.
    const oneClick = await http()
      .post(pathOf(unsubscribeUrl))
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(oneClick.body.message).toMatch(/unsubscribed/);
    expect(await subscribers().findOne({ _id: email })).toMatchObject({ state: 'unsubscribed', suppressed: { reason: 'unsubscribed' } });
    // Idempotent; and a confirm token from before cannot undo it.
    await http()
      .post(pathOf(unsubscribeUrl))
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    await post('/api/newsletter/confirm', { token: tokenOf(linkIn(mail, CONFIRM_LINK)) }).expect(400);
    // A tampered token unsubscribes nobody.
    await http().post('/api/newsletter/unsubscribe?token=eyJwIjoidW5zdWJzY3JpYmUifQ.bogus-signature-bogus').expect(400);
  });

  it('answers the same for a new, a pending and a confirmed address, and mails only those that are not confirmed', async () => {
    const confirmedEmail = unique('already');
    await subscribe(confirmedEmail).expect(202);
    await post('/api/newsletter/confirm', { token: tokenOf(linkIn(await confirmationMail(confirmedEmail), CONFIRM_LINK)) }).expect(200);
    const fresh = unique('fresh');

    const forNew = await subscribe(fresh).expect(202);
    const forConfirmed = await subscribe(confirmedEmail).expect(202);
    expect(forConfirmed.body).toEqual(forNew.body);
    await confirmationMail(fresh);
    await settle();
    expect(mailsTo(confirmedEmail)).toHaveLength(1);
    expect((await subscribers().findOne({ _id: confirmedEmail }))!.state).toBe('confirmed');
  });

  it('throttles confirmation mails per address: one per 10 minutes, three per day, so nobody can mail-bomb a third party', async () => {
    const victim = unique('victim');
    for (let attempt = 0; attempt < 5; attempt += 1) await subscribe(victim).expect(202);
    await confirmationMail(victim);
    await settle();
    expect(mailsTo(victim)).toHaveLength(1);

    // Eleven minutes later: one more.
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    await subscribers().updateOne({ _id: victim }, { $set: { lastConfirmMailAt: elevenMinutesAgo } });
    await subscribe(victim).expect(202);
    await sink.waitFor(() => mailsTo(victim).length === 2);
    // The day's cap reached: nothing more, however long the pause.
    await subscribers().updateOne({ _id: victim }, { $set: { lastConfirmMailAt: elevenMinutesAgo, mailDayCount: 3 } });
    await subscribe(victim).expect(202);
    await settle();
    expect(mailsTo(victim)).toHaveLength(2);
  });

  it('refuses bad input with field messages, and a sign-up without the CSRF token', async () => {
    const bad = await post('/api/newsletter/subscribe', { email: 'not an address', consent: false }).expect(400);
    expect(bad.body.fields.email).toEqual(['Enter a valid e-mail address']);
    expect(bad.body.fields.consent).toEqual(['Tick the box to agree to receive the newsletter']);
    const extra = await post('/api/newsletter/subscribe', { email: unique('extra'), consent: true, state: 'confirmed' }).expect(400);
    expect(extra.body.fields.state).toEqual(['state is not allowed']);
    const noToken = await post('/api/newsletter/confirm', {}).expect(400);
    expect(noToken.body.fields.token).toBeDefined();
    await http()
      .post('/api/newsletter/subscribe')
      .send({ email: unique('csrf'), consent: true })
      .expect(403);
    await http().post('/api/newsletter/unsubscribe').set('Content-Type', 'application/x-www-form-urlencoded').send('x=1').expect(400);
  });

  it('subscribes from registration (its own confirmation link) and from the profile (at once for a verified address; off unsubscribes)', async () => {
    const email = unique('registered');
    await post('/api/auth/register', { name: 'Opt In', email, password: PASSWORD, newsletter: true }).expect(202);
    await confirmationMail(email);
    expect(await subscribers().findOne({ _id: email })).toMatchObject({ state: 'pending', consent: { source: 'register' } });

    const reader = unique('profile');
    const session = await signedIn(reader);
    const on = await http()
      .patch('/api/profile')
      .set('Cookie', [csrf.cookie, session].join('; '))
      .set('x-csrf-token', csrf.token)
      .send({ newsletterOptIn: true })
      .expect(200);
    expect(on.body).toMatchObject({ newsletterOptIn: true, newsletterState: 'confirmed' });
    expect(await subscribers().findOne({ _id: reader })).toMatchObject({
      consent: { source: 'profile' },
      confirmation: { via: 'profile' },
    });
    const off = await http()
      .patch('/api/profile')
      .set('Cookie', [csrf.cookie, session].join('; '))
      .set('x-csrf-token', csrf.token)
      .send({ newsletterOptIn: false })
      .expect(200);
    expect(off.body).toMatchObject({ newsletterOptIn: false, newsletterState: 'unsubscribed' });

    // "Export my data" carries the subscription and its consent proof; deleting the account removes it.
    const exported = await http().get('/api/profile/export').set('Cookie', session).expect(200);
    expect(exported.body.newsletter).toMatchObject({ email: reader, state: 'unsubscribed', consent: { source: 'profile' } });
    await http()
      .delete('/api/profile')
      .set('Cookie', [csrf.cookie, session].join('; '))
      .set('x-csrf-token', csrf.token)
      .send({ currentPassword: PASSWORD, confirm: DELETE_ACCOUNT_CONFIRMATION })
      .expect(204);
    expect(await subscribers().findOne({ _id: reader })).toBeNull();
  });

  it('lists, searches, filters and counts subscribers for admins, exports CSV with formula cells neutralised, and refuses others', async () => {
    const formula = `=hyperlink-${Date.now().toString(36)}@example.test`;
    await subscribe(formula).expect(202);
    const admin = await signedIn(ADMIN);
    const asAdmin = (path: string) => http().get(path).set('Cookie', admin);

    const all = await asAdmin('/api/admin/newsletter/subscribers').expect(200);
    expect(all.body.counts.pending).toBeGreaterThan(0);
    expect(all.body.counts.confirmed).toBeGreaterThan(0);
    expect(all.body.counts.unsubscribed).toBeGreaterThan(0);
    expect(all.body.total).toBe(Object.values(all.body.counts as Record<string, number>).reduce((sum, n) => sum + n, 0));

    const searched = await asAdmin('/api/admin/newsletter/subscribers?q=HYPERLINK').expect(200);
    expect(searched.body.items).toEqual([expect.objectContaining({ email: formula, state: 'pending', source: 'home', suppressed: false })]);
    const unsubscribed = await asAdmin('/api/admin/newsletter/subscribers?state=unsubscribed&pageSize=100').expect(200);
    expect(unsubscribed.body.items.length).toBeGreaterThan(0);
    expect(unsubscribed.body.items.every((item: { state: string }) => item.state === 'unsubscribed')).toBe(true);
    const paged = await asAdmin('/api/admin/newsletter/subscribers?pageSize=1&page=2').expect(200);
    expect(paged.body).toMatchObject({ page: 2, pageSize: 1 });
    expect(paged.body.items).toHaveLength(1);
    const invalid = await asAdmin('/api/admin/newsletter/subscribers?state=gone&pageSize=500').expect(400);
    expect(Object.keys(invalid.body.fields).sort()).toEqual(['pageSize', 'state']);

    // A search's pages and total: the order the database gives the same filter (newest first, ties by address).
    const tag = `pagefix${Date.now().toString(36)}`;
    for (const n of [3, 1, 4, 2, 5]) await subscribe(`${tag}-${n}@example.test`).expect(202);
    const inDatabase = await subscribers()
      .find({ _id: { $regex: tag } })
      .sort({ createdAt: -1, _id: 1 })
      .toArray();
    const pages = await Promise.all(
      [1, 2, 3].map(
        async (n) => (await asAdmin(`/api/admin/newsletter/subscribers?q=${tag.toUpperCase()}&pageSize=2&page=${n}`).expect(200)).body,
      ),
    );
    expect(pages.map((body) => body.total)).toEqual([5, 5, 5]);
    expect(pages.flatMap((body) => body.items.map((item: { email: string }) => item.email))).toEqual(inDatabase.map((doc) => doc._id));

    const csv = await asAdmin('/api/admin/newsletter/subscribers.csv?q=hyperlink').expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="newsletter-subscribers.csv"');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('"email","state","source","subscribed_at","confirmed_at","unsubscribed_at","suppressed","consent_version"');
    expect(lines).toHaveLength(2);
    expect(lines[1].startsWith(`"'${formula}","pending","home",`)).toBe(true);

    await http().get('/api/admin/newsletter/subscribers').expect(401);
    await http().get('/api/admin/newsletter/subscribers.csv').expect(401);
    const user = await signedIn(unique('not-admin'));
    await http().get('/api/admin/newsletter/subscribers').set('Cookie', user).expect(403);
    await http().get('/api/admin/newsletter/subscribers.csv').set('Cookie', user).expect(403);
  });
});
