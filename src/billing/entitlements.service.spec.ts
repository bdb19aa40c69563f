import { Module } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import { Test } from '@nestjs/testing';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { ENTITLEMENT_SINK, type Entitlement, type EntitlementSink } from './entitlement-sink.js';
import { EntitlementsService } from './entitlements.service.js';
import { Order, SubscriptionMirror } from './schemas/billing.schemas.js';

const order = {
  _id: 'ord_x',
  userId: 'u1',
  planId: 'solo-lifetime',
  kind: 'checkout',
  quantity: 1,
  paidAt: new Date('2026-11-24T00:00:00Z'),
  status: 'paid',
  dispute: null,
  stripe: { subscriptionId: null },
};
const lean = (value: unknown) => ({ lean: () => ({ exec: async () => value }) });

@Module({
  providers: [
    EntitlementsService,
    { provide: getModelToken(Order.name), useValue: { findById: () => lean(order) } },
    { provide: getModelToken(SubscriptionMirror.name), useValue: {} },
    {
      provide: CatalogueService,
      useValue: { get: async () => ({ _id: 'solo-lifetime', products: ['hitscope-for-apps'], seats: 1, interval: 'lifetime' }) },
    },
  ],
})
class BillingLikeModule {}

describe('EntitlementsService: where the sink comes from', () => {
  it('finds a sink that another (non-global) module provides and exports, without importing it', async () => {
    const applied: Entitlement[] = [];
    const sink: EntitlementSink = { apply: async (entitlement) => void applied.push(entitlement) };
    @Module({ providers: [{ provide: ENTITLEMENT_SINK, useValue: sink }], exports: [ENTITLEMENT_SINK] })
    class LicencesLikeModule {}
    const moduleRef = await Test.createTestingModule({ imports: [BillingLikeModule, LicencesLikeModule] }).compile();
    await moduleRef.init();
    await moduleRef.get(EntitlementsService).applyOrder('ord_x');
    expect(applied).toEqual([expect.objectContaining({ source: { kind: 'order', id: 'ord_x' }, state: 'active', expiresAt: null })]);
  });

  it('logs the entitlement when no module binds a sink (the app runs before the licences module lands)', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [BillingLikeModule] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    await expect(moduleRef.get(EntitlementsService).applyOrder('ord_x')).resolves.toBeUndefined();
  });
});
