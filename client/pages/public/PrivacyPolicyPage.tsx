import { PRODUCT } from '../../../lib/product.js';

export default function PrivacyPolicyPage() {
  return (
    <section className="section container prose">
      <h1>Privacy policy</h1>
      <p>{PRODUCT.name} collects as little as it can.</p>
    </section>
  );
}
