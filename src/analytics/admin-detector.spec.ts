import { createSecretKey } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { jwtKey, type SessionsService } from '../auth/sessions.service.js';
import type { UsersService } from '../users/users.service.js';
import { AdminDetector } from './admin-detector.js';

const SECRET = 'admin-detector-spec-secret-0123456789';
const RULES = { algorithms: ['HS256' as const], issuer: 'http://127.0.0.1:1', audience: 'hitscope' };
// The key object the app verifies with (SessionsService.signingKey); tokens below are signed with the plain string.
const sessions = { tokenRules: RULES, signingKey: jwtKey(createSecretKey(Buffer.from(SECRET))) } as unknown as SessionsService;
const users = {
  adminIds: async () => ['admin-1'],
} as unknown as UsersService;

const jwt = new JwtService();
const token = (sub: string, secret = SECRET) =>
  jwt.sign({ sub }, { secret, algorithm: 'HS256', issuer: RULES.issuer, audience: RULES.audience });
const cookie = (value: string) => `hs_color_mode=dark; hs_session=${encodeURIComponent(value)}`;

describe('AdminDetector', () => {
  const detector = new AdminDetector(sessions, users);
  beforeAll(() => detector.refresh());

  it("recognises an admin's session token", () => {
    expect(detector.isAdminRequest(cookie(token('admin-1')))).toBe(true);
  });

  it('answers no for another user, no cookie, or garbage', () => {
    expect(detector.isAdminRequest(cookie(token('user-2')))).toBe(false);
    expect(detector.isAdminRequest(undefined)).toBe(false);
    expect(detector.isAdminRequest(cookie('not-a-token'))).toBe(false);
  });

  it("does not take a token that names an admin but is not signed with the site's key", () => {
    expect(detector.isAdminRequest(cookie(token('admin-1', 'another-secret-0123456789-abcdef')))).toBe(false);
  });
});
