import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { type Model, Types } from 'mongoose';
import { AccountToken, type AccountTokenPurpose } from './schemas/account-token.schema.js';

export const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  'verify-email': 48 * 60 * 60 * 1000,
  'reset-password': 30 * 60 * 1000,
};

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

@Injectable()
export class AccountTokensService {
  constructor(@InjectModel(AccountToken.name) private readonly tokens: Model<AccountToken>) {}

  /** Issues a new token; for password resets, earlier unused ones of the user stop working. */
  async issue(purpose: AccountTokenPurpose, userId: string, email: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    if (purpose === 'reset-password') {
      await this.tokens
        .updateMany({ purpose, userId: new Types.ObjectId(userId), usedAt: null }, { $set: { usedAt: new Date(now) } })
        .exec();
    }
    await this.tokens.create({
      _id: hash(token),
      purpose,
      userId: new Types.ObjectId(userId),
      email,
      expiresAt: new Date(now + TOKEN_TTL_MS[purpose]),
      createdAt: new Date(now),
    });
    return token;
  }

  /** Atomically marks the token used; returns it only if it was unused, unexpired and of this purpose. */
  async consume(purpose: AccountTokenPurpose, token: string): Promise<{ userId: string; email: string } | null> {
    if (!/^[\w-]{43}$/.test(token)) return null;
    const now = new Date();
    const used = await this.tokens
      .findOneAndUpdate(
        { _id: hash(token), purpose, usedAt: null, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
        { returnDocument: 'after' },
      )
      .lean()
      .exec();
    return used ? { userId: used.userId.toString(), email: used.email } : null;
  }

  async deleteAllForUser(userId: string): Promise<void> {
    await this.tokens.deleteMany({ userId: new Types.ObjectId(userId) }).exec();
  }

  async sweepExpired(now = new Date()): Promise<void> {
    await this.tokens.deleteMany({ expiresAt: { $lt: now } }).exec();
  }
}
