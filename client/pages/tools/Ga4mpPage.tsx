import { PageHeader } from '../../components/PageHeader.js';
import { Ga4mpWorkbench } from '../../features/ga4mp/components/Ga4mpWorkbench.js';
import '../../features/ga4mp/ga4mp.css';

export default function Ga4mpPage() {
  return (
    <>
      <PageHeader title="GA4 Measurement Protocol">
        Compose a Measurement Protocol payload for a web or app stream, validate it against GA4's rules as you type, and send it to GA4's
        validation server or collection endpoint.
      </PageHeader>
      <Ga4mpWorkbench />
    </>
  );
}
