import { licenceChangeMail, orderConfirmationMail, renewalReceiptMail } from './billing-mails.js';
import { checkoutConsent } from './checkout-consent.js';

const links = { publicUrl: 'https://hitscope.example' };

describe('the buyer’s mails', () => {
  const order = {
    orderId: 'ord_abc',
    planName: 'Team',
    interval: 'month' as const,
    products: ['hitscope-for-apps', 'hitscope-for-browsers'] as const,
    seats: 5,
    amountMinor: 2900,
    currency: 'eur' as const,
    renewsAt: new Date('2031-02-01T00:00:00Z'),
    receiptUrl: 'https://invoice.stripe.com/i/x',
    keys: [
      { product: 'hitscope-for-apps' as const, key: 'HSA-MEV58-9CQPB-TNM4Y-YGNR8-B' },
      { product: 'hitscope-for-browsers' as const, key: null },
    ],
  };

  it('confirms an order with what was bought, the amount, each key and where to download, in text and escaped HTML', () => {
    const mail = orderConfirmationMail('ada@example.test', 'Ada <admin>', order, links);
    expect(mail.subject).toBe('Your Hitscope order: Team');
    expect(mail.text).toContain('Plan: Team (billed every month, renews on 2031-02-01)');
    expect(mail.text).toContain('Products: Hitscope for Apps and Hitscope for Browsers');
    expect(mail.text).toContain('Amount paid: €29.00');
    expect(mail.text).toContain('Hitscope for Apps: HSA-MEV58-9CQPB-TNM4Y-YGNR8-B');
    // A key that cannot be read is never made up: the dashboard shows it.
    expect(mail.text).toContain('Hitscope for Browsers: shown in your dashboard');
    expect(mail.text).toContain('Download Hitscope for Apps: https://hitscope.example/dashboard/tools/hitscope-for-apps');
    expect(mail.text).toContain('Manage your subscription: https://hitscope.example/dashboard/user/subscription');
    expect(mail.html).toContain('Ada &lt;admin&gt;');
    expect(mail.html).not.toContain('<admin>');
  });

  it('says a one-off purchase never expires and offers no subscription link', () => {
    const mail = orderConfirmationMail(
      'ada@example.test',
      'Ada',
      { ...order, interval: 'lifetime', renewsAt: null, keys: [order.keys[0]] },
      links,
    );
    expect(mail.text).toContain('(one-off payment, never expires)');
    expect(mail.text).toContain('Your licence key');
    expect(mail.text).not.toContain('Manage your subscription');
  });

  it('receipts a renewal and words each licence change plainly', () => {
    const receipt = renewalReceiptMail(
      'ada@example.test',
      'Ada',
      {
        planName: 'Team',
        products: ['hitscope-for-apps'],
        amountMinor: 29000,
        currency: 'eur',
        paidAt: new Date('2031-02-01T10:00:00Z'),
        periodEnd: new Date('2032-02-01T10:00:00Z'),
        invoiceUrl: null,
        invoiceId: 'in_1',
      },
      links,
    );
    expect(receipt.subject).toBe('Receipt for your Hitscope subscription (Team)');
    expect(receipt.text).toContain(
      'we received €290.00 for your Team subscription on 2031-02-01. Your licences are valid until 2032-02-01.',
    );
    expect(receipt.text).toContain('Invoice: in_1');
    const purchase = { planName: 'Solo lifetime', products: ['hitscope-for-apps'] as const, orderId: 'ord_x' };
    expect(licenceChangeMail('a@b.c', 'A', 'revoked-refund', purchase, links).subject).toBe(
      'Your Hitscope licence is revoked after a refund',
    );
    expect(licenceChangeMail('a@b.c', 'A', 'suspended-dispute', purchase, links).text).toContain('suspended until the dispute is decided');
    expect(licenceChangeMail('a@b.c', 'A', 'restored-dispute', purchase, links).subject).toBe('Your Hitscope licence is active again');
  });
});

describe('the terms question at Checkout', () => {
  const plan = { interval: 'lifetime' as const, products: ['hitscope-for-apps', 'hitscope-for-browsers'] as const };

  it('asks with a required checkbox whose words link the terms and their withdrawal section', () => {
    const params = checkoutConsent('https://hitscope.example', 'required', plan);
    expect(params.consent_collection).toEqual({ terms_of_service: 'required' });
    const message = (params.custom_text!.terms_of_service_acceptance as { message: string }).message;
    expect(message).toContain('[terms of service](https://hitscope.example/terms)');
    expect(message).toContain('[right of withdrawal](https://hitscope.example/terms#withdrawal)');
    expect(message).toContain('delivered immediately');
    expect(message.length).toBeLessThanOrEqual(1200);
    expect((params.custom_text!.submit as { message: string }).message).toBe(
      'Your licence keys for Hitscope for Apps and Hitscope for Browsers are delivered right after payment, by e-mail and in your dashboard.',
    );
  });

  it('without the checkbox (STRIPE_TERMS_CONSENT=off) says the same beside the pay button, and a subscription how it ends', () => {
    const params = checkoutConsent('https://hitscope.example', 'off', { interval: 'month', products: ['hitscope-for-apps'] });
    expect(params).not.toHaveProperty('consent_collection');
    const submit = (params.custom_text!.submit as { message: string }).message;
    expect(submit).toMatch(/^Your licence key for Hitscope for Apps is delivered right after payment/);
    expect(submit).toContain('By paying: I agree to the [terms of service](https://hitscope.example/terms)');
    expect(submit).toContain('cancel the subscription at the end of any billing period');
    expect(submit.length).toBeLessThanOrEqual(1200);
  });
});
