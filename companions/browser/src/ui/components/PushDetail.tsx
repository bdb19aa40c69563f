import type { RefObject } from 'react';
import type { DataLayerRecord } from '../../../../../lib/tools/live/records.js';
import { dataLayerName } from '../../../../../lib/tools/live/datalayer.js';
import { formatTime } from '../format.js';

/** One dataLayer push: when, from which script, and the value as it was at the moment it was pushed. */
export function PushDetail({
  record,
  onClose,
  headingRef,
}: {
  record: DataLayerRecord;
  onClose: () => void;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <section className="card har-detail push-detail" aria-labelledby="push-detail-title">
      <div className="har-detail__header">
        <div>
          <p className="eyebrow">{record.gtag ? 'gtag() call' : 'dataLayer.push'}</p>
          <h2 id="push-detail-title" ref={headingRef} tabIndex={-1}>
            {dataLayerName(record)}
          </h2>
        </div>
        <button type="button" className="button button--small button--ghost" onClick={onClose} aria-label="Close push details">
          ×
        </button>
      </div>
      <dl className="har-facts">
        <div>
          <dt>Time (UTC)</dt>
          <dd>{formatTime(new Date(record.time).toISOString())}</dd>
        </div>
        <div>
          <dt>How</dt>
          <dd>{record.via === 'initial' ? 'In the array when it was assigned' : 'Pushed'}</dd>
        </div>
        <div className="har-facts__wide">
          <dt>Script</dt>
          <dd>{record.script ?? 'Unknown (inline code or a script without a URL)'}</dd>
        </div>
        <div className="har-facts__wide">
          <dt>Page</dt>
          <dd>{record.url}</dd>
        </div>
      </dl>
      <h3>Value</h3>
      <pre className="push-detail__value">{JSON.stringify(record.value, null, 2)}</pre>
    </section>
  );
}
