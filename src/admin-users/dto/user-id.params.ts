import { IsMongoId } from 'class-validator';

/** A malformed id is a 400 (the client sent garbage); a well-formed unknown one is a 404. */
export class UserIdParams {
  @IsMongoId({ message: 'id must be a 24-character hexadecimal user id' })
  id!: string;
}
