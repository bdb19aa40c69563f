// The goal-1 data set of issue 27 (a real small business), seeded through the app's own mongoose
// schemas (compiled in dist/), so every document is what the app would have written: per user, two
// orders, one licence with its key, seat and activated device, three newsletter subscribers (other
// addresses), ten analytics events (as the app keeps them: closed days folded into one summary each,
// the last two days' visitor-days and the open day's counters) and a tenth of a webhook event; one
// subscription for every fifth user. At 100 000 users: 200 000 orders, 100 000 licences and
// activations, 300 000 subscribers, 1 000 000 analytics events, 10 000 webhook events.
//
// Seeding grows the data set from one size to the next (1 000 → 10 000 → 100 000) without touching
// what is there; only the analytics documents, which are aggregates, are written again.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The password of every seeded account (one argon2id hash, made once: hashing 100 000 would take hours). */
export const SEED_PASSWORD = 'scale benchmark passphrase';
export const ADMIN_EMAIL = 'scale-admin@bench.example';
/** The app's AUTH_SECRET in the benchmark: the seeded licence keys are encrypted with keys derived from it. */
export const AUTH_SECRET = 'scale-benchmark-auth-secret-0123456789abcdef';
/** Ten events per user, as the goal-1 set counts them. */
const EVENTS_PER_USER = 10;
const ANALYTICS_DAYS = 90;
const BATCH = 1000;

const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Tim'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Dijkstra'];
const DOMAINS = ['example.com', 'mail.example', 'agency.example', 'shop.example', 'analytics.example'];
const PATHS = Array.from({ length: 45 }, (_, i) => (i === 0 ? '/' : `/page-${i}`));
const REFERRERS = Array.from({ length: 30 }, (_, i) => `site-${i}.example`);
const COUNTRIES = ['DE', 'FR', 'GB', 'US', 'NL', 'ES', 'IT', 'PL', 'SE', 'CH', 'AT', 'BE', 'CA', 'IN', 'BR', 'JP'];
const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Samsung Internet', 'Opera'];
const SYSTEMS = ['Windows', 'macOS', 'Android', 'iOS', 'Linux'];
const DEVICES = ['desktop', 'mobile', 'tablet'];
/** 100 000 users 10 minutes apart: two years of sign-ups, the newest today. */
const SIGNUP_SPACING_MS = 10 * 60_000;
const MAX_USERS = 100_000;

/** The seeded user number `i`: what its documents are made of (deterministic, so later steps find it). */
export function seededUser(i, now) {
  const first = FIRST[i % FIRST.length];
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
  return {
    i,
    email: `u${i}.${last.toLowerCase()}@${DOMAINS[i % DOMAINS.length]}`,
    name: `${first} ${last} ${i}`,
    createdAt: new Date(now - Math.max(1, MAX_USERS - i) * SIGNUP_SPACING_MS),
  };
}

const hex = (text) => createHash('sha256').update(text).digest('hex');
const base32 = (text, length) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...createHash('sha256').update(text).digest()]
    .slice(0, length)
    .map((byte) => alphabet[byte & 31])
    .join('');
};
const utcDay = (time) => new Date(time).toISOString().slice(0, 10);

/** Licence keys as the app makes them: generated, encrypted and hashed with keys derived from AUTH_SECRET. */
export async function licenceKeyMaker(root) {
  const { LicenceCryptoService } = await import(pathToFileURL(join(root, 'dist/app/src/licences/licence-crypto.service.js')).href);
  const { generateKey } = await import(pathToFileURL(join(root, 'dist/app/lib/licences/key.js')).href);
  const crypto = new LicenceCryptoService({ authSecret: AUTH_SECRET });
  return (licenceId) => {
    const key = generateKey('hitscope-for-browsers');
    return {
      keyCiphertext: crypto.encrypt(key.normalised, licenceId),
      keyLookup: crypto.lookup(key.normalised),
      keyHint: key.normalised.slice(-4),
    };
  };
}

/** Mongoose models of the app's schemas on `connection` (the compiled ones in dist/). */
export async function appModels(root, connection) {
  const load = async (file) => import(pathToFileURL(join(root, 'dist/app/src', file)).href);
  const [users, billing, licence, activation, seat, key, subscriber, counter, visitorDay] = await Promise.all([
    load('users/schemas/user.schema.js'),
    load('billing/schemas/billing.schemas.js'),
    load('licences/schemas/licence.schema.js'),
    load('licences/schemas/licence-activation.schema.js'),
    load('licences/schemas/licence-seat.schema.js'),
    load('licences/schemas/licence-key.schema.js'),
    load('newsletter/schemas/newsletter-subscriber.schema.js'),
    load('analytics/schemas/analytics-counter.schema.js'),
    load('analytics/schemas/visitor-day.schema.js'),
  ]);
  const model = (name, schema) => connection.model(name, schema);
  return {
    User: model('User', users.UserSchema),
    Order: model('Order', billing.OrderSchema),
    Subscription: model('SubscriptionMirror', billing.SubscriptionMirrorSchema),
    StripeEvent: model('StripeEventRecord', billing.StripeEventRecordSchema),
    StripeEventPayload: model('StripeEventPayload', billing.StripeEventPayloadSchema),
    Licence: model('Licence', licence.LicenceSchema),
    Activation: model('LicenceActivation', activation.LicenceActivationSchema),
    Seat: model('LicenceSeat', seat.LicenceSeatSchema),
    LicenceKey: model('LicenceKey', key.LicenceKeySchema),
    Subscriber: model('NewsletterSubscriber', subscriber.NewsletterSubscriberSchema),
    Counter: model('AnalyticsCounter', counter.AnalyticsCounterSchema),
    DaySummary: model('AnalyticsDaySummary', counter.AnalyticsDaySummarySchema),
    VisitorDay: model('VisitorDay', visitorDay.VisitorDaySchema),
  };
}

/** Inserts `count` documents made by `make(index)`, BATCH per command, validated by the schema. */
async function insertAll(Model, from, to, make) {
  for (let start = from; start < to; start += BATCH) {
    const docs = [];
    for (let index = start; index < Math.min(to, start + BATCH); index += 1) {
      const made = make(index);
      if (Array.isArray(made)) docs.push(...made);
      else if (made) docs.push(made);
    }
    if (docs.length) await Model.insertMany(docs, { ordered: false });
  }
}

/**
 * Grows the data set from `from` users to `to` users. Answers how many documents it wrote per
 * collection. `passwordHash` is the one hash every seeded account has.
 */
export async function seedUsersTo(models, { from, to, passwordHash, makeKey, now }) {
  const written = {};
  const count = (name, n) => (written[name] = (written[name] ?? 0) + n);
  const userId = (i) => hex(`user:${i}`).slice(0, 24);

  if (from === 0) {
    // What a database the app grew itself holds: its one-time migrations recorded as done on its
    // first start (database/once.ts). Everything seeded here is in the form they produce already
    // (addresses in normal form, every licence key with its reference), so without the markers the
    // app's first start would check 100 000 accounts and licences for nothing (13.5 s, measured).
    await models.User.db.collection('database_migrations').insertMany(
      ['licence-key-references', 'normal-form-addresses'].map((name) => ({ _id: name, doneAt: new Date(now) })),
      { ordered: false },
    );
    await models.User.createIndexes();
    await models.User.create({
      name: 'Scale Admin',
      email: ADMIN_EMAIL,
      passwordHash,
      role: 'admin',
      emailVerifiedAt: new Date(now),
    });
  }
  await insertAll(models.User, from, to, (i) => {
    const user = seededUser(i, now);
    return {
      _id: userId(i),
      name: user.name,
      email: user.email,
      passwordHash,
      role: i % 1000 === 999 ? 'admin' : 'user',
      status: i % 200 === 199 ? 'disabled' : 'active',
      emailVerifiedAt: i % 50 === 49 ? null : user.createdAt,
      newsletterOptIn: i % 3 === 0,
      createdAt: user.createdAt,
      updatedAt: user.createdAt,
    };
  });
  count('users', to - from);

  await insertAll(models.Order, from, to, (i) => {
    const { createdAt } = seededUser(i, now);
    return [0, 1].map((n) => {
      const at = new Date(createdAt.getTime() + n * 3_600_000);
      return {
        _id: `ord_${base32(`order:${i}:${n}`, 26)}`,
        userId: userId(i),
        // Plans of the default catalogue (the overview's MRR values subscriptions by their plan).
        planId: n === 0 ? 'solo-monthly' : 'solo-lifetime',
        products: [n === 0 ? 'hitscope-for-apps' : 'hitscope-for-browsers'],
        quantity: 1,
        amountMinor: n === 0 ? 900 : 19900,
        currency: 'eur',
        status: i % 40 === 0 && n === 1 ? 'refunded' : 'paid',
        kind: n === 0 ? 'renewal' : 'checkout',
        refundedMinor: 0,
        stripe: {
          checkoutSessionId: `cs_${base32(`cs:${i}:${n}`, 24)}`,
          customerId: `cus_${base32(`cus:${i}`, 14)}`,
          subscriptionId: n === 0 && i % 5 === 0 ? `sub_${base32(`sub:${i}`, 24)}` : null,
          invoiceId: null,
          paymentIntentId: `pi_${base32(`pi:${i}:${n}`, 24)}`,
          chargeId: `ch_${base32(`ch:${i}:${n}`, 24)}`,
          hostedInvoiceUrl: null,
        },
        createdAt: at,
        paidAt: at,
        updatedAt: at,
      };
    });
  });
  count('orders', 2 * (to - from));

  await insertAll(models.Subscription, from, to, (i) => {
    if (i % 5 !== 0) return null;
    const { createdAt } = seededUser(i, now);
    return {
      _id: `sub_${base32(`sub:${i}`, 24)}`,
      userId: userId(i),
      customerId: `cus_${base32(`cus:${i}`, 14)}`,
      planId: 'solo-monthly',
      priceId: 'price_solo_monthly',
      quantity: 1,
      status: 'active',
      currentPeriodEnd: new Date(now + 20 * 86_400_000),
      stripeEventAt: Math.floor(createdAt.getTime() / 1000),
      updatedAt: createdAt,
    };
  });
  count('subscriptions', Math.ceil(to / 5) - Math.ceil(from / 5));

  // One licence per user, found by its key's lookup hash; its seat 0 held by one activated device.
  const licenceId = (i) => `lic_${base32(`licence:${i}`, 26)}`;
  const keys = new Map();
  await insertAll(models.Licence, from, to, (i) => {
    const { createdAt } = seededUser(i, now);
    const key = makeKey(licenceId(i));
    keys.set(i, key.keyLookup);
    return {
      _id: licenceId(i),
      userId: userId(i),
      product: 'hitscope-for-browsers',
      planId: 'solo-lifetime',
      source: { kind: 'order', id: `ord_${base32(`order:${i}:1`, 26)}` },
      seats: 3,
      state: 'active',
      ...key,
      createdAt,
      updatedAt: createdAt,
    };
  });
  await insertAll(models.LicenceKey, from, to, (i) => ({ _id: keys.get(i), licenceId: licenceId(i) }));
  await insertAll(models.Activation, from, to, (i) => {
    const { createdAt } = seededUser(i, now);
    const fingerprint = hex(`device:${i}`);
    return {
      _id: `${licenceId(i)}:${fingerprint}`,
      licenceId: licenceId(i),
      fingerprint,
      status: 'active',
      seat: 0,
      claim: `claim-${i}`,
      name: 'Laptop',
      platform: 'linux',
      appVersion: '1.0.0',
      activatedAt: createdAt,
      lastSeenAt: createdAt,
    };
  });
  await insertAll(models.Seat, from, to, (i) => {
    const { createdAt } = seededUser(i, now);
    return {
      _id: `${licenceId(i)}:0`,
      licenceId: licenceId(i),
      activationId: `${licenceId(i)}:${hex(`device:${i}`)}`,
      claim: `claim-${i}`,
      kind: 'seat',
      claimedAt: createdAt,
    };
  });
  count('licences, keys, activations, seats (each)', to - from);

  // Three subscribers per user, at other addresses: mostly confirmed, some pending or gone.
  await insertAll(models.Subscriber, 3 * from, 3 * to, (j) => {
    const at = new Date(now - Math.max(1, 3 * MAX_USERS - j) * (SIGNUP_SPACING_MS / 3));
    const state = j % 10 === 8 ? 'pending' : j % 10 === 9 ? 'unsubscribed' : 'confirmed';
    return {
      _id: `reader${j}@${DOMAINS[j % DOMAINS.length]}`,
      state,
      consent: { source: 'home', at, ipHash: null, textVersion: 'bench' },
      confirmation: state === 'pending' ? null : { at, ipHash: null, via: 'link' },
      createdAt: at,
      confirmedAt: state === 'pending' ? null : at,
      unsubscribedAt: state === 'unsubscribed' ? at : null,
      suppressed: state === 'unsubscribed' ? { reason: 'unsubscribed', at } : null,
      updatedAt: at,
    };
  });
  count('newsletter subscribers', 3 * (to - from));

  // A tenth of a webhook event per user, processed long ago, with its body beside the record.
  await insertAll(models.StripeEvent, Math.floor(from / 10), Math.floor(to / 10), (k) => {
    const at = new Date(now - (MAX_USERS / 10 - k) * 10 * SIGNUP_SPACING_MS);
    return {
      _id: `evt_${base32(`evt:${k}`, 24)}`,
      type: k % 3 === 0 ? 'checkout.session.completed' : k % 3 === 1 ? 'invoice.paid' : 'customer.subscription.updated',
      created: Math.floor(at.getTime() / 1000),
      apiVersion: '2026-10-28.endive',
      status: 'done',
      attempts: 1,
      outcome: 'applied',
      receivedAt: at,
      processedAt: at,
    };
  });
  await insertAll(models.StripeEventPayload, Math.floor(from / 10), Math.floor(to / 10), (k) => ({
    _id: `evt_${base32(`evt:${k}`, 24)}`,
    payload: JSON.stringify({
      id: `evt_${base32(`evt:${k}`, 24)}`,
      object: 'event',
      data: { object: { id: `obj_${k}`, padding: 'x'.repeat(3000) } },
    }),
  }));
  count('webhook events (and bodies)', Math.floor(to / 10) - Math.floor(from / 10));

  written['analytics documents (rewritten)'] = await seedAnalytics(models, to * EVENTS_PER_USER, now);
  return written;
}

/**
 * `events` page views over the last ANALYTICS_DAYS days, stored as the app keeps them: every
 * closed day one summary of `[dimension, value, count]` triples, the last two days' visitor-days
 * (deleted 48 h after their day closed) and the open day's counters. Replaces what was there.
 */
async function seedAnalytics(models, events, now) {
  await Promise.all([models.DaySummary.deleteMany({}), models.Counter.deleteMany({}), models.VisitorDay.deleteMany({})]);
  const perDay = Math.round(events / ANALYTICS_DAYS);
  const visitorsPerDay = Math.max(1, Math.round(perDay / 3));
  const today = utcDay(now);
  const spread = (values, total, dim) => {
    const weights = values.map((_, index) => 1 / (index + 1));
    const sum = weights.reduce((a, b) => a + b, 0);
    return values.map((value, index) => [dim, value, Math.max(1, Math.round((total * weights[index]) / sum))]);
  };
  const countsOf = (n) => [
    ['total', 'pageviews', n],
    ['total', 'visits', Math.round(n / 2.5)],
    ['total', 'bounces', Math.round(n / 6)],
    ['total', 'visitors', Math.round(n / 3)],
    ...spread(PATHS, n, 'page'),
    ...spread(PATHS, Math.round(n / 2.5), 'entry'),
    ...spread(REFERRERS, Math.round(n / 5), 'referrer'),
    ...spread(['direct', 'search', 'social', 'referral', 'email'], Math.round(n / 2.5), 'channel'),
    ...spread(COUNTRIES, n, 'country'),
    ...spread(BROWSERS, n, 'browser'),
    ...spread(SYSTEMS, n, 'os'),
    ...spread(DEVICES, n, 'device'),
  ];
  const summaries = [];
  for (let back = ANALYTICS_DAYS - 1; back >= 1; back -= 1) {
    const day = utcDay(now - back * 86_400_000);
    summaries.push({ _id: day, counts: JSON.stringify(countsOf(perDay)), closedAt: new Date(now - (back - 1) * 86_400_000) });
  }
  await models.DaySummary.insertMany(summaries, { ordered: false });
  // The open day, half gone: its counters as the flushes leave them.
  const counters = countsOf(Math.round(perDay / 2)).map(([dim, value, n]) => ({
    _id: `${today}|${dim}|${value}`,
    day: today,
    dim,
    value,
    n,
  }));
  await models.Counter.insertMany(counters, { ordered: false });
  let visitorDays = 0;
  for (const back of [1, 0]) {
    const day = utcDay(now - back * 86_400_000);
    const visitors = back ? visitorsPerDay : Math.round(visitorsPerDay / 2);
    await insertAll(models.VisitorDay, 0, visitors, (v) => {
      const at = new Date(Date.parse(`${day}T00:00:00Z`) + ((v * 86_400_000) / visitors) * (back ? 1 : 0.5));
      return {
        _id: `${day}:${hex(`visitor:${day}:${v}`).slice(0, 32)}`,
        day,
        entry: PATHS[v % PATHS.length],
        firstAt: at,
        lastAt: at,
        pages: 3,
        visits: 1,
        visitPages: 3,
      };
    });
    visitorDays += visitors;
  }
  return summaries.length + counters.length + visitorDays;
}
