import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../lib/auth/session-user.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { User, type UserDocument } from './schemas/user.schema.js';

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
}

export function toSessionUser(user: Pick<UserDocument, 'id' | 'name' | 'email' | 'role'>): SessionUser {
  return { id: user.id as string, name: user.name, email: user.email, role: user.role };
}

@Injectable()
export class UsersService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  normaliseEmail(email: string): string {
    return email.trim().toLowerCase();
  }

  findByEmail(email: string): Promise<UserDocument | null> {
    return this.users.findOne({ email: this.normaliseEmail(email) }).exec();
  }

  findById(id: string): Promise<UserDocument | null> {
    return this.users.findById(id).exec();
  }

  /** Throws the driver's duplicate-key error (code 11000) when the e-mail is taken. */
  async create(input: NewUser): Promise<UserDocument> {
    const email = this.normaliseEmail(input.email);
    return this.users.create({
      name: input.name.trim(),
      email,
      passwordHash: input.passwordHash,
      role: this.isConfiguredAdmin(email) ? 'admin' : 'user',
    });
  }

  isConfiguredAdmin(email: string): boolean {
    return this.config.adminEmails.includes(this.normaliseEmail(email));
  }

  /** ADMIN_EMAILS bootstraps the first admins: promoted when they sign in. Never demotes. */
  async applyConfiguredRole(user: UserDocument): Promise<UserDocument> {
    if (user.role !== 'admin' && this.isConfiguredAdmin(user.email)) {
      user.role = 'admin';
      await this.users.updateOne({ _id: user._id }, { $set: { role: 'admin' } }).exec();
    }
    return user;
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { passwordHash } }).exec();
  }

  async promote(email: string): Promise<UserDocument | null> {
    return this.users
      .findOneAndUpdate({ email: this.normaliseEmail(email) }, { $set: { role: 'admin' } }, { new: true })
      .exec();
  }
}
