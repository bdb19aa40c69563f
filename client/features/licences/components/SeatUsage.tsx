import { plural } from '../format.js';
import '../licences.css';

/** "2 of 5 seats in use" with a bar; the text says it all, the bar is a picture of it. */
export function SeatUsage({ used, allowed, labelId }: { used: number; allowed: number; labelId: string }) {
  const full = used >= allowed;
  return (
    <div className="licence__seats">
      <span className="licence__label" id={labelId}>
        Seats
      </span>
      <p className="licence__seats-text">
        <strong>{used}</strong> of {plural(allowed, 'seat')} in use
        {full ? <span className="licence__seats-full"> · all taken</span> : null}
      </p>
      <progress
        className={`licence__seats-bar${full ? ' licence__seats-bar--full' : ''}`}
        max={allowed}
        value={Math.min(used, allowed)}
        aria-labelledby={labelId}
        aria-valuetext={`${used} of ${allowed} seats in use`}
      />
    </div>
  );
}
