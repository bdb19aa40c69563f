import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CatalogueProduct } from '../../../../lib/api/catalogue.js';
import { adminProductsQuery } from '../api.js';
import { FreeDownloadsDialog } from './FreeDownloadsDialog.js';
import '../catalogue-admin.css';

/**
 * The companion products' download switches. A switch does not flip on click: it asks first (the
 * dialog), because turning it on gives every build away to anybody.
 */
export function ProductDownloads() {
  const id = useId();
  const products = useQuery(adminProductsQuery());
  const [asking, setAsking] = useState<CatalogueProduct | null>(null);

  let body;
  if (products.isPending) {
    body = (
      <div role="status" aria-busy="true" aria-label="Loading products" className="catalogue-admin__loading">
        <div className="skeleton catalogue-admin__skeleton" />
        <div className="skeleton catalogue-admin__skeleton" />
      </div>
    );
  } else if (products.isError) {
    body = (
      <div className="alert alert--error catalogue-admin__load-error" role="alert">
        <span>Could not load the products.</span>
        <button type="button" className="button button--small" onClick={() => void products.refetch()}>
          Retry
        </button>
      </div>
    );
  } else {
    body = (
      <ul className="catalogue-admin__products" aria-labelledby={`${id}-title`}>
        {products.data.products.map((product) => (
          <li key={product.slug} className="catalogue-admin__product">
            <div className="catalogue-admin__product-text">
              <span className="catalogue-admin__name" id={`${id}-${product.slug}`}>
                Free downloads of {product.name}
              </span>
              <span className="muted catalogue-admin__product-state" id={`${id}-${product.slug}-state`}>
                {product.downloadsFree ? 'Anybody may download its builds, signed in or not.' : 'Downloads need a valid licence.'}
              </span>
            </div>
            <button
              type="button"
              role="switch"
              aria-checked={product.downloadsFree}
              aria-labelledby={`${id}-${product.slug}`}
              aria-describedby={`${id}-${product.slug}-state`}
              className="catalogue-admin__switch"
              onClick={() => setAsking(product)}
            >
              <span className="catalogue-admin__switch-track" aria-hidden="true">
                <span className="catalogue-admin__switch-thumb" />
              </span>
              <span className="catalogue-admin__switch-label" aria-hidden="true">
                {product.downloadsFree ? 'On' : 'Off'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="catalogue-admin__block">
      <h3 id={`${id}-title`} className="catalogue-admin__subtitle">
        Downloads
      </h3>
      <p className="muted catalogue-admin__hint">
        Free downloads need no licence: the tool pages offer the builds to everybody and the download links work for anybody.
      </p>
      {body}
      {asking ? <FreeDownloadsDialog key={asking.slug} product={asking} onClose={() => setAsking(null)} /> : null}
    </div>
  );
}
