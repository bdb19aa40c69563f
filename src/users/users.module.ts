import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { SIDE_CONNECTION } from '../database/database.module.js';
import { User, UserSchema } from './schemas/user.schema.js';
import { UsersAccountData } from './users.account-data.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [
    MongooseModule.forFeature([{ name: User.name, schema: UserSchema }]),
    // Mail recipients read in groups (UsersService.recipientOf), beside the updates.
    MongooseModule.forFeature([{ name: User.name, schema: UserSchema }], SIDE_CONNECTION),
  ],
  providers: [UsersService, UsersAccountData],
  exports: [UsersService],
})
export class UsersModule {}
