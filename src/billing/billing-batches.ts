import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { SIDE_CONNECTION } from '../database/database.module.js';
import { InsertBatcher } from '../database/insert-batcher.js';
import { ReadBatcher } from '../database/read-batcher.js';
import { UpdateBatcher } from '../database/update-batcher.js';
import { Order, SubscriptionMirror } from './schemas/billing.schemas.js';

/**
 * The webhook reducer's reads and writes of orders and subscriptions by `_id`, grouped across the
 * events processed at the same moment (src/database/*-batcher.ts). An event reads its order or
 * subscription two or three times on its way (the change, the entitlement, the mail) and writes it
 * once or twice; several events are processed at once (WebhookService), so most of these commands
 * travel together: one `$in` find, one bulk write, one insert for many events. Each caller still
 * gets its own answer (a document, a matchedCount), so the handlers' compare-and-set guards work as
 * they do alone.
 */
@Injectable()
export class BillingBatches {
  private readonly orderReads: ReadBatcher<Order>;
  readonly orderWrites: UpdateBatcher<Order>;
  readonly orderInserts: InsertBatcher<Order>;
  private readonly subscriptionReads: ReadBatcher<SubscriptionMirror>;
  /** A subscription's orders (its checkout and renewals) by `stripe.subscriptionId`: their status and dispute. */
  readonly paymentsOf: ReadBatcher<Pick<Order, '_id' | 'status' | 'dispute'>>;
  readonly subscriptionWrites: UpdateBatcher<SubscriptionMirror>;

  constructor(
    @InjectModel(Order.name) orders: Model<Order>,
    @InjectModel(SubscriptionMirror.name) subscriptions: Model<SubscriptionMirror>,
    @InjectModel(Order.name, SIDE_CONNECTION) orderReads: Model<Order>,
    @InjectModel(SubscriptionMirror.name, SIDE_CONNECTION) subscriptionReads: Model<SubscriptionMirror>,
  ) {
    // Reads beside the updates (SIDE_CONNECTION); updates and inserts on the one connection.
    this.orderReads = new ReadBatcher(orderReads);
    this.orderWrites = new UpdateBatcher(orders);
    this.orderInserts = new InsertBatcher(orders);
    this.subscriptionReads = new ReadBatcher(subscriptionReads);
    this.paymentsOf = new ReadBatcher(orderReads as never, { by: 'stripe.subscriptionId', projection: { status: 1, dispute: 1 } });
    this.subscriptionWrites = new UpdateBatcher(subscriptions);
  }

  order(id: string): Promise<Order | null> {
    return this.orderReads.findById(id);
  }

  subscription(id: string): Promise<SubscriptionMirror | null> {
    return this.subscriptionReads.findById(id);
  }
}
