import { useLinker } from '../hooks/useLinker.js';
import { DecodePanel } from './DecodePanel.js';
import { EncodePanel } from './EncodePanel.js';
import { LinkerTabs } from './LinkerTabs.js';
import { VerifyPanel } from './VerifyPanel.js';
import '../linker.css';

/** The Google tag linker: Decode, Verify and Encode tabs over one shared link and browser. */
export function LinkerTool() {
  const linker = useLinker();
  return (
    <LinkerTabs active={linker.tab} onChange={linker.openTab}>
      {linker.tab === 'decode' ? (
        <DecodePanel
          link={linker.link}
          onLink={linker.setLink}
          decoded={linker.decoded}
          onDecode={linker.decodeLink}
          onExample={linker.fillExample}
          onVerify={() => linker.openTab('verify')}
        />
      ) : linker.tab === 'verify' ? (
        <VerifyPanel
          link={linker.link}
          onLink={linker.setLink}
          browser={linker.browser}
          browserErrors={linker.browserErrors}
          onBrowser={linker.setBrowser}
          verified={linker.verified}
          onVerify={linker.verifyLink}
        />
      ) : (
        <EncodePanel
          rows={linker.rows}
          onRows={linker.setRows}
          onAddRow={linker.addRow}
          browser={linker.browser}
          browserErrors={linker.browserErrors}
          onBrowser={linker.setBrowser}
          baseUrl={linker.baseUrl}
          onBaseUrl={linker.setBaseUrl}
          placement={linker.placement}
          onPlacement={linker.setPlacement}
          errors={linker.encodeErrors}
          encoded={linker.encoded}
          onEncode={linker.encodeLink}
          onDecodeGenerated={linker.decodeGenerated}
        />
      )}
    </LinkerTabs>
  );
}
