import { PageHeader } from '../../components/PageHeader.js';
import { LinkerTool } from '../../features/linker/components/LinkerTool.js';
import '../../features/linker/linker.css';

export default function LinkerPage() {
  return (
    <>
      <PageHeader title="Google tag linker">
        Decode a <code>_gl</code> linker parameter or a decorated URL into its cookies, check its fingerprint against a browser, or build
        one from cookies. Everything runs in your browser with the same code as gtag.js&apos;s linker.
      </PageHeader>
      <LinkerTool />
    </>
  );
}
