import { type ReactNode, type UIEvent, useCallback, useLayoutEffect, useRef, useState } from 'react';

interface Props<T> {
  items: readonly T[];
  /** Every row has this height (CSS pixels): what makes the window a simple division. */
  rowHeight: number;
  label: string;
  keyOf: (item: T) => string | number;
  renderRow: (item: T, index: number) => ReactNode;
  /** Keep the newest row in view while rows are added, as long as the list is scrolled to its end. */
  follow?: boolean;
  /** Scroll so that this row is visible (a row opened from elsewhere, the keyboard). */
  reveal?: number | null;
}

const OVERSCAN = 8;

/**
 * A list that renders only the rows in view (plus a few), so 20 000 rows cost as much as 30: the
 * "panel freezes on busy pages" complaint. Rows are positioned absolutely in a box as tall as all of
 * them, and each carries its position in the set for assistive technology.
 */
export function VirtualList<T>({ items, rowHeight, label, keyOf, renderRow, follow = false, reveal = null }: Props<T>) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const atEnd = useRef(true);
  const total = items.length * rowHeight;

  const measure = useCallback((node: HTMLDivElement | null) => {
    box.current = node;
    if (!node) return;
    setHeight(node.clientHeight || 600);
    const observer = new ResizeObserver(() => setHeight(node.clientHeight || 600));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const node = event.currentTarget;
    setScrollTop(node.scrollTop);
    atEnd.current = node.scrollTop + node.clientHeight >= node.scrollHeight - rowHeight;
  };

  useLayoutEffect(() => {
    const node = box.current;
    if (!node || !follow || !atEnd.current) return;
    node.scrollTop = node.scrollHeight;
    setScrollTop(node.scrollTop);
  }, [items.length, follow]);

  useLayoutEffect(() => {
    const node = box.current;
    if (!node || reveal === null || reveal < 0) return;
    const top = reveal * rowHeight;
    if (top < node.scrollTop) node.scrollTop = top;
    else if (top + rowHeight > node.scrollTop + node.clientHeight) node.scrollTop = top + rowHeight - node.clientHeight;
    setScrollTop(node.scrollTop);
  }, [reveal, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const item = items[index]!;
    rows.push(
      <li
        key={keyOf(item)}
        className="vlist__row"
        style={{ top: index * rowHeight, height: rowHeight }}
        aria-setsize={items.length}
        aria-posinset={index + 1}
        data-index={index}
      >
        {renderRow(item, index)}
      </li>,
    );
  }
  return (
    <div ref={measure} className="vlist" onScroll={onScroll}>
      <ol className="vlist__rows" aria-label={label} style={{ height: total }}>
        {rows}
      </ol>
    </div>
  );
}
