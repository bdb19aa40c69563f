import { PricingPlans } from '../../features/billing/components/PricingPlans.js';
import { GetStartedSection } from '../../features/marketing/components/GetStartedSection.js';
import { HeroSection } from '../../features/marketing/components/HeroSection.js';
import { HowItWorksSection } from '../../features/marketing/components/HowItWorksSection.js';
import { NewsletterSection } from '../../features/marketing/components/NewsletterSection.js';
import { NewsletterSignupForm } from '../../features/newsletter/components/NewsletterSignupForm.js';
import { PricingSection } from '../../features/marketing/components/PricingSection.js';
import { ToolsSection } from '../../features/marketing/components/ToolsSection.js';

export default function HomePage() {
  return (
    <>
      <HeroSection />
      <ToolsSection />
      <HowItWorksSection />
      <PricingSection>
        <PricingPlans />
      </PricingSection>
      <NewsletterSection>
        <NewsletterSignupForm />
      </NewsletterSection>
      <GetStartedSection />
    </>
  );
}
