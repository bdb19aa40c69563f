import { MongoClient, ObjectId } from 'mongodb';
import { csrfToken, newAgent, PASSWORD, signUp, uniqueEmail } from '../support/e2e.js';
import { tinyPng } from '../support/png.js';

let mongo: MongoClient;
const db = () => mongo.db();

beforeAll(async () => {
  mongo = await MongoClient.connect(process.env.HITSCOPE_E2E_MONGODB_URI!);
});
afterAll(() => mongo?.close());

describe('profile', () => {
  it('returns the profile and saves name, colour mode and newsletter flag', async () => {
    const { agent, token, email } = await signUp({ name: 'Before' });
    const profile = await agent.get('/api/profile').expect(200);
    expect(profile.body).toMatchObject({
      name: 'Before',
      email,
      // Signing up goes through the link mailed to the address: the account is confirmed.
      emailVerified: true,
      colorMode: 'system',
      newsletterOptIn: false,
      avatarUrl: null,
    });
    expect(profile.body.passwordHash).toBeUndefined();

    const updated = await agent
      .patch('/api/profile')
      .set('x-csrf-token', token)
      .send({ name: '  After  ', colorMode: 'dark', newsletterOptIn: true })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'After', colorMode: 'dark', newsletterOptIn: true });
    expect((updated.headers['set-cookie'] as unknown as string[]).join()).toContain('hs_color_mode=dark');
    expect((await agent.get('/api/auth/me').expect(200)).body.name).toBe('After');

    const bad = await agent
      .patch('/api/profile')
      .set('x-csrf-token', token)
      .send({ colorMode: 'neon', email: 'x@example.test' })
      .expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['colorMode', 'email']);
  });

  it('brings the colour mode saved on the account to another browser at sign-in, and leaves the default alone', async () => {
    const { agent, token, email } = await signUp({ name: 'Two Browsers' });
    const signInElsewhere = async () => {
      const other = newAgent();
      const csrf = await csrfToken(other);
      const response = await other.post('/api/auth/login').set('x-csrf-token', csrf).send({ email, password: PASSWORD }).expect(200);
      return { body: response.body, cookies: ((response.headers['set-cookie'] as unknown as string[] | undefined) ?? []).join('\n') };
    };

    // Nothing chosen yet ("system", every account's default): the other browser keeps its own mode.
    const before = await signInElsewhere();
    expect(before.body.colorMode).toBe('system');
    expect(before.cookies).not.toContain('hs_color_mode=');

    await agent.patch('/api/profile').set('x-csrf-token', token).send({ colorMode: 'dark' }).expect(200);
    const after = await signInElsewhere();
    expect(after.body.colorMode).toBe('dark');
    expect(after.cookies).toMatch(/hs_color_mode=dark;[^\n]*Path=\//);
    expect(after.cookies).not.toMatch(/hs_color_mode=[^\n]*HttpOnly/);
  });

  it('changes the e-mail only after the new address is verified', async () => {
    const { agent, token, email } = await signUp();
    const taken = (await signUp()).email;
    await agent
      .post('/api/profile/email')
      .set('x-csrf-token', token)
      .send({ email: uniqueEmail('new'), currentPassword: 'not my password' })
      .expect(403);
    await agent.post('/api/profile/email').set('x-csrf-token', token).send({ email: taken, currentPassword: PASSWORD }).expect(409);

    const next = uniqueEmail('next');
    const pending = await agent
      .post('/api/profile/email')
      .set('x-csrf-token', token)
      .send({ email: next, currentPassword: PASSWORD })
      .expect(201);
    expect(pending.body).toMatchObject({ email, pendingEmail: next });

    const mail = await db().collection('mail_outbox').findOne({ to: next });
    const link = /\/api\/auth\/verify-email\?token=[\w-]+/.exec(mail!.text as string)![0];
    await newAgent().get(link).expect(302);
    const after = await agent.get('/api/profile').expect(200);
    expect(after.body).toMatchObject({ email: next, pendingEmail: null, emailVerified: true });
    const login = newAgent();
    const loginToken = await csrfToken(login);
    await login.post('/api/auth/login').set('x-csrf-token', loginToken).send({ email: next, password: PASSWORD }).expect(200);
  });

  it('changes the password after checking the current one, optionally signing out other sessions', async () => {
    const { agent, token, email } = await signUp();
    const other = newAgent();
    const otherToken = await csrfToken(other);
    await other.post('/api/auth/login').set('x-csrf-token', otherToken).send({ email, password: PASSWORD }).expect(200);

    await agent
      .post('/api/profile/password')
      .set('x-csrf-token', token)
      .send({ currentPassword: 'wrong wrong wrong', newPassword: 'another fine passphrase' })
      .expect(403);
    const weak = await agent
      .post('/api/profile/password')
      .set('x-csrf-token', token)
      .send({ currentPassword: PASSWORD, newPassword: 'password1234' })
      .expect(400);
    expect(weak.body.fields.newPassword).toBeDefined();
    const changed = await agent
      .post('/api/profile/password')
      .set('x-csrf-token', token)
      .send({ currentPassword: PASSWORD, newPassword: 'another fine passphrase', signOutOtherSessions: true })
      .expect(200);
    expect(changed.body).toEqual({ signedOutSessions: 1 });
    await agent.get('/api/auth/me').expect(200);
    await other.get('/api/auth/me').expect(401);
  });

  it('answers a wrong current password with a field error for currentPassword, wherever it is asked for', async () => {
    const { agent, token } = await signUp();
    const wrong = 'not my password at all';
    const expected = { code: 'WRONG_PASSWORD', fields: { currentPassword: ['Your current password is not correct'] } };
    const password = await agent
      .post('/api/profile/password')
      .set('x-csrf-token', token)
      .send({ currentPassword: wrong, newPassword: 'another fine passphrase' })
      .expect(403);
    expect(password.body).toMatchObject(expected);
    const email = await agent
      .post('/api/profile/email')
      .set('x-csrf-token', token)
      .send({ email: uniqueEmail('elsewhere'), currentPassword: wrong })
      .expect(403);
    expect(email.body).toMatchObject(expected);
    const deletion = await agent
      .delete('/api/profile')
      .set('x-csrf-token', token)
      .send({ currentPassword: wrong, confirm: 'DELETE' })
      .expect(403);
    expect(deletion.body).toMatchObject(expected);
    await agent.get('/api/auth/me').expect(200);
  });

  it("names the e-mail field when the new address is taken or is already the account's", async () => {
    const { agent, token, email } = await signUp();
    const taken = (await signUp()).email;
    const conflict = await agent
      .post('/api/profile/email')
      .set('x-csrf-token', token)
      .send({ email: taken, currentPassword: PASSWORD })
      .expect(409);
    expect(conflict.body.fields).toEqual({ email: ['An account with this e-mail address already exists'] });
    const same = await agent.post('/api/profile/email').set('x-csrf-token', token).send({ email, currentPassword: PASSWORD }).expect(400);
    expect(same.body.fields).toEqual({ email: ['That is already your e-mail address'] });
  });

  it('gives the signed-in user the uploaded avatar, so the header can show it', async () => {
    const { agent, token } = await signUp();
    expect((await agent.get('/api/auth/me').expect(200)).body.avatarUrl).toBeNull();
    const uploaded = await agent
      .put('/api/profile/avatar')
      .set('x-csrf-token', token)
      .attach('avatar', tinyPng(), { filename: 'me.png', contentType: 'image/png' })
      .expect(200);
    expect((await agent.get('/api/auth/me').expect(200)).body.avatarUrl).toBe(uploaded.body.avatarUrl);
    await agent.delete('/api/profile/avatar').set('x-csrf-token', token).expect(200);
    expect((await agent.get('/api/auth/me').expect(200)).body.avatarUrl).toBeNull();
  });

  it('stores a PNG avatar in file storage and serves it with safe headers; refuses other files', async () => {
    const { agent, token } = await signUp();
    const uploaded = await agent
      .put('/api/profile/avatar')
      .set('x-csrf-token', token)
      .attach('avatar', tinyPng(), { filename: 'me.png', contentType: 'image/png' })
      .expect(200);
    expect(uploaded.body.avatarUrl).toMatch(/^\/api\/avatars\/[0-9a-f]{24}$/);
    const image = await newAgent().get(uploaded.body.avatarUrl).expect(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toContain('immutable');
    expect(Buffer.compare(image.body as Buffer, tinyPng())).toBe(0);
    expect(image.headers.etag).toMatch(/^"[0-9a-f]{24}"$/);
    await newAgent()
      .get(uploaded.body.avatarUrl)
      .set('If-None-Match', image.headers.etag as string)
      .expect(304);

    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const refused = await agent
      .put('/api/profile/avatar')
      .set('x-csrf-token', token)
      .attach('avatar', html, { filename: 'x.png', contentType: 'image/png' })
      .expect(415);
    expect(refused.body.message).toBe('The avatar must be a PNG, JPEG or WebP image');
    await agent
      .put('/api/profile/avatar')
      .set('x-csrf-token', token)
      .attach('avatar', Buffer.concat([tinyPng(), Buffer.alloc(1024 * 1024)]), { filename: 'big.png', contentType: 'image/png' })
      .expect(413);

    const replaced = await agent
      .put('/api/profile/avatar')
      .set('x-csrf-token', token)
      .attach('avatar', tinyPng(), { filename: 'again.png', contentType: 'image/png' })
      .expect(200);
    expect(replaced.body.avatarUrl).not.toBe(uploaded.body.avatarUrl);
    await newAgent().get(uploaded.body.avatarUrl).expect(404);
  });

  it('exports the account as a JSON download without secrets', async () => {
    const { agent, email } = await signUp();
    const exported = await agent.get('/api/profile/export').expect(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="hitscope-my-data.json"');
    expect(exported.body.profile.email).toBe(email);
    expect(exported.body.sessions).toHaveLength(1);
    expect(exported.body.linkedIdentities).toEqual([]);
    expect(JSON.stringify(exported.body)).not.toMatch(/passwordHash|refreshHash|argon2/);
  });

  it('deletes the account and everything of it after confirmation', async () => {
    const { agent, token, email, user } = await signUp();
    const avatar = await agent
      .put('/api/profile/avatar')
      .set('x-csrf-token', token)
      .attach('avatar', tinyPng(), { filename: 'me.png', contentType: 'image/png' })
      .expect(200);
    await agent.delete('/api/profile').set('x-csrf-token', token).send({ currentPassword: PASSWORD, confirm: 'yes' }).expect(400);
    await agent
      .delete('/api/profile')
      .set('x-csrf-token', token)
      .send({ currentPassword: 'wrong wrong wrong', confirm: 'DELETE' })
      .expect(403);
    expect(await db().collection('users').countDocuments({ email })).toBe(1);

    await agent.delete('/api/profile').set('x-csrf-token', token).send({ currentPassword: PASSWORD, confirm: 'DELETE' }).expect(204);
    await agent.get('/api/auth/me').expect(401);
    expect(await db().collection('users').countDocuments({ email })).toBe(0);
    expect(
      await db()
        .collection('sessions')
        .countDocuments({ userId: new ObjectId(user.id) }),
    ).toBe(0);
    expect(
      await db()
        .collection('account_tokens')
        .countDocuments({ userId: new ObjectId(user.id) }),
    ).toBe(0);
    await newAgent().get(avatar.body.avatarUrl).expect(404);
    const login = newAgent();
    const loginToken = await csrfToken(login);
    await login.post('/api/auth/login').set('x-csrf-token', loginToken).send({ email, password: PASSWORD }).expect(401);
  });
});
