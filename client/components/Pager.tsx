import './Pager.css';

interface Props {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  /** The navigation's accessible name ("Pages", "History pages"). */
  label: string;
  previousLabel?: string;
  nextLabel?: string;
  /** While the next page loads: both buttons wait. */
  busy?: boolean;
}

/** Previous / "Page n of m" / Next. A page past the end (the list shrank) still offers the way back. */
export function Pager({ page, pageCount, onPage, label, previousLabel = 'Previous', nextLabel = 'Next', busy = false }: Props) {
  const pages = Math.max(1, pageCount);
  const current = Math.min(page, pages);
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button button--small" disabled={page <= 1 || busy} onClick={() => onPage(Math.min(page - 1, pages))}>
        {previousLabel}
      </button>
      <span className="pager__position">
        Page {current} of {pages}
      </span>
      <button type="button" className="button button--small" disabled={page >= pages || busy} onClick={() => onPage(page + 1)}>
        {nextLabel}
      </button>
    </nav>
  );
}
