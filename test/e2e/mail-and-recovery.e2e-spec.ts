import { MongoClient } from 'mongodb';
import request from 'supertest';
import type { RunningApp } from '../../src/app.factory.js';
import { MailService } from '../../src/mail/mail.service.js';
import { PASSWORD } from '../support/e2e.js';
import { MailSuite, REGISTRATION_SUBJECT } from '../support/mail-suite.js';
import { linkIn, type SmtpSink } from '../support/smtp-sink.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe('e-mail through a real SMTP server: verification, password reset, durable outbox', () => {
  let running: RunningApp;
  let sink: SmtpSink;
  let mongo: MongoClient;
  const suite = new MailSuite();
  const { http, post } = suite;
  const registerUnconfirmed = (email: string) => suite.registerUnconfirmed(email);
  const register = (email: string) => suite.register(email);

  beforeAll(async () => {
    await suite.start('mail');
    ({ running, sink, mongo } = suite);
  });
  afterAll(() => suite.stop());

  it('sends a verification link on registration that verifies the address once', async () => {
    // Followed in a browser that is not signed in (the link is often opened elsewhere): it lands on
    // the sign-in screen, which says the address is confirmed.
    await registerUnconfirmed('verify-me@example.test');
    const mail = await sink.waitFor((m) => m.to.includes('verify-me@example.test'));
    expect(mail.subject).toBe(REGISTRATION_SUBJECT);
    expect(mail.raw).toMatch(/^From: Hitscope <no-reply@hitscope\.local>/m);
    const link = linkIn(mail, /http:\/\/hitscope\.test\/api\/auth\/verify-email\?token=[\w-]+/);
    const path = new URL(link).pathname + new URL(link).search;

    const first = await http().get(path).expect(302);
    expect(first.headers.location).toBe('/login?verified=1');
    const user = await mongo.db().collection('users').findOne({ email: 'verify-me@example.test' });
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
    const again = await http().get(path).expect(302);
    expect(again.headers.location).toBe('/login?verified=0');
  });

  it('lands a browser that is signed in on its profile, and one whose session has ended on the sign-in screen', async () => {
    // An e-mail change: the link to the new address, followed where the account is signed in.
    const session = await register('verify-signed-in@example.test');
    await post('/api/profile/email', { email: 'verify-new-address@example.test', currentPassword: PASSWORD }, session).expect(201);
    const mail = await sink.waitFor((m) => m.to.includes('verify-new-address@example.test'));
    const link = new URL(linkIn(mail, /http:\/\/hitscope\.test\/api\/auth\/verify-email\?token=[\w-]+/));
    const path = link.pathname + link.search;
    const signedIn = await http().get(path).set('Cookie', session).expect(302);
    expect(signedIn.headers.location).toBe('/dashboard/user/profile?verified=1');

    await post('/api/auth/logout', {}, session).expect(204);
    const afterLogout = await http().get(path).set('Cookie', session).expect(302);
    expect(afterLogout.headers.location).toBe('/login?verified=0');
  });

  it('answers forgot-password identically for known and unknown addresses and mails only the known one', async () => {
    await registerUnconfirmed('forgetful@example.test');
    const known = await post('/api/auth/forgot-password', { email: 'forgetful@example.test' }).expect(202);
    const unknown = await post('/api/auth/forgot-password', { email: 'nobody-here@example.test' }).expect(202);
    expect(known.body).toEqual(unknown.body);
    await sink.waitFor((m) => m.to.includes('forgetful@example.test') && m.subject === 'Reset your Hitscope password');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.received.some((m) => m.to.includes('nobody-here@example.test'))).toBe(false);
  });

  it('takes about the same time whether or not the account exists', async () => {
    const timings = { known: [] as number[], unknown: [] as number[] };
    const ROUNDS = 9;
    const mailsTo = (address: string) => sink.received.filter((mail) => mail.to.includes(address)).length;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which kind goes first, so that neither always follows the other's leftovers.
      const kinds = [
        ['known', 'forgetful@example.test'],
        ['unknown', `ghost-${round}@example.test`],
      ] as const;
      for (const [kind, email] of round % 2 ? [...kinds].reverse() : kinds) {
        const mailsBefore = mailsTo(email);
        const started = performance.now();
        await post('/api/auth/forgot-password', { email }).expect(202);
        timings[kind].push(performance.now() - started);
        // The known address's mail is written and delivered after the answer: wait until it has
        // arrived, so that its SMTP exchange slows no measured request (each answer's own latency is
        // what an attacker sees and what is compared).
        if (kind === 'known') await sink.waitFor(() => mailsTo(email) > mailsBefore);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
    expect(Math.abs(median(timings.known) - median(timings.unknown))).toBeLessThan(50);
  });

  it('resets the password once with a 30-minute link, and signs the account out everywhere', async () => {
    const cookies = await register('reset-me@example.test');
    await post('/api/auth/forgot-password', { email: 'reset-me@example.test' }).expect(202);
    const mail = await sink.waitFor((m) => m.to.includes('reset-me@example.test') && m.subject.startsWith('Reset'));
    const token = new URL(linkIn(mail, /http:\/\/hitscope\.test\/login\?reset=[\w-]+/)).searchParams.get('reset')!;
    const stored = await mongo.db().collection('account_tokens').findOne({ purpose: 'reset-password', email: 'reset-me@example.test' });
    expect(stored?._id).not.toBe(token); // only the hash is stored
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(30 * 60 * 1000);

    await post('/api/auth/reset-password', { token, password: 'password1234' }).expect(400);
    await post('/api/auth/reset-password', { token, password: NEW_PASSWORD }).expect(204);
    const reused = await post('/api/auth/reset-password', { token, password: NEW_PASSWORD }).expect(400);
    expect(reused.body.message).toBe('This reset link has expired or was already used: request a new one');

    await http().get('/api/auth/me').set('Cookie', cookies).expect(401);
    await post('/api/auth/login', { email: 'reset-me@example.test', password: PASSWORD }).expect(401);
    await post('/api/auth/login', { email: 'reset-me@example.test', password: NEW_PASSWORD }).expect(200);
  });

  it('refuses an expired reset link', async () => {
    await registerUnconfirmed('slow-reader@example.test');
    await post('/api/auth/forgot-password', { email: 'slow-reader@example.test' }).expect(202);
    const mail = await sink.waitFor((m) => m.to.includes('slow-reader@example.test') && m.subject.startsWith('Reset'));
    const token = new URL(linkIn(mail, /http:\/\/hitscope\.test\/login\?reset=[\w-]+/)).searchParams.get('reset')!;
    await mongo
      .db()
      .collection('account_tokens')
      .updateMany({ email: 'slow-reader@example.test', purpose: 'reset-password' }, { $set: { expiresAt: new Date(Date.now() - 1) } });
    await post('/api/auth/reset-password', { token, password: NEW_PASSWORD }).expect(400);
  });

  it('retries a temporarily refused message with the same Message-ID until it is delivered', async () => {
    sink.rejectNext = 1;
    await registerUnconfirmed('retry-me@example.test');
    const outbox = mongo.db().collection('mail_outbox');
    const deadline = Date.now() + 10_000;
    let pending = null;
    while (Date.now() < deadline) {
      pending = await outbox.findOne({ to: 'retry-me@example.test' });
      if (pending?.status === 'pending' && pending.attempts === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('451') });

    await outbox.updateOne({ _id: pending!._id }, { $set: { nextAttemptAt: new Date() } });
    await running.app.get(MailService).drain();
    const delivered = await sink.waitFor((m) => m.to.includes('retry-me@example.test'));
    expect(sink.attempts.filter((id) => id === delivered.messageId)).toHaveLength(2);
    expect(await outbox.findOne({ _id: pending!._id })).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });
});

describe('e-mail without SMTP configured', () => {
  it('keeps the message in the outbox collection', async () => {
    const mongo = await MongoClient.connect(process.env.HITSCOPE_E2E_MONGODB_URI!);
    try {
      const agent = request.agent(process.env.HITSCOPE_E2E_URL!);
      const token = (await agent.get('/api/auth/csrf')).body.token as string;
      const email = `outbox-${Date.now()}@example.test`;
      await agent.post('/api/auth/register').set('x-csrf-token', token).send({ name: 'Outbox', email, password: PASSWORD }).expect(202);
      const stored = await mongo.db().collection('mail_outbox').findOne({ to: email });
      expect(stored).toMatchObject({ status: 'stored', subject: 'Finish creating your Hitscope account' });
      expect(stored?.messageId).toMatch(/^<[\w-]+@127\.0\.0\.1>$/);
    } finally {
      await mongo.close();
    }
  });
});
