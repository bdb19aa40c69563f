import { PRODUCT } from '../../../lib/product.js';

export default function SponsorPage() {
  return (
    <section className="section container prose">
      <h1>Sponsor {PRODUCT.name}</h1>
      <p>Sponsorship keeps the free tools free.</p>
    </section>
  );
}
