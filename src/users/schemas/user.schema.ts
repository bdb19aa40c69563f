import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import { COLOR_MODES, type ColorMode } from '../../../lib/client-constants.js';
import { ROLES, type Role } from '../../../lib/api/auth.js';

export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

@Schema({ collection: 'users', timestamps: true })
export class User {
  @Prop({ required: true, trim: true, maxlength: 100 })
  name!: string;

  /** In the normal form of lib/accounts/email-address.ts (lower case, ASCII domain); unique. */
  @Prop({ required: true, unique: true, lowercase: true, trim: true })
  email!: string;

  @Prop({ required: true })
  passwordHash!: string;

  /**
   * False for accounts created through an OpenID Connect provider (their hash is of a random secret
   * nobody knows) until the owner sets a password with "Forgot password". Absent on older accounts:
   * read it as `passwordSet !== false`.
   */
  @Prop({ type: Boolean, default: true })
  passwordSet!: boolean;

  /** Indexed: the admins are read on their own (UsersService#adminIds). */
  @Prop({ type: String, required: true, enum: ROLES, default: 'user', index: true })
  role!: Role;

  @Prop({ type: String, required: true, enum: USER_STATUSES, default: 'active' })
  status!: UserStatus;

  /** Set when the owner followed the verification link sent to `email`. */
  @Prop({ type: Date, default: null })
  emailVerifiedAt!: Date | null;

  /**
   * Set while a registration waits for its confirmation link: the same value is in the signed
   * `hs_signup` cookie of the browser that registered, so following the link there signs in at
   * once. Elsewhere (or after someone else registered the address meanwhile) the link only confirms.
   */
  @Prop({ type: String, default: null })
  registrationNonce!: string | null;

  /** A new address waiting for its verification link to be followed; `email` changes only then. */
  @Prop({ type: String, default: null, lowercase: true, trim: true })
  pendingEmail!: string | null;

  @Prop({ type: Boolean, default: false })
  newsletterOptIn!: boolean;

  /** File-storage id of the avatar image, or null. */
  @Prop({ type: String, default: null })
  avatarId!: string | null;

  @Prop({ type: String, enum: COLOR_MODES, default: 'system' })
  colorMode!: ColorMode;

  createdAt!: Date;
  updatedAt!: Date;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
/**
 * The admin list's filters and orders (AdminUsersService#list): with them the embedded database
 * answers a page and its total from its indexes instead of reading every account
 * (docs/database.md, "Pages and counts").
 */
UserSchema.index({ createdAt: -1 });
UserSchema.index({ name: 1 });
UserSchema.index({ status: 1 });
