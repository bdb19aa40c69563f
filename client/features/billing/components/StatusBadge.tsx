import type { Tone } from '../format.js';
import '../billing.css';

export function StatusBadge({ label, tone }: { label: string; tone: Tone }) {
  return <span className={`badge billing-badge billing-badge--${tone}`}>{label}</span>;
}
