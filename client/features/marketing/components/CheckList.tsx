import { Icon } from '../../../components/Icon.js';
import '../marketing.css';

export function CheckList({ items }: { items: readonly string[] }) {
  return (
    <ul className="check-list">
      {items.map((item) => (
        <li key={item}>
          <Icon name="check" size={18} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
