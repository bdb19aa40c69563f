import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MailService } from './mail.service.js';
import { OutboxMessage, OutboxMessageSchema } from './schemas/outbox-message.schema.js';

@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: OutboxMessage.name, schema: OutboxMessageSchema }])],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
