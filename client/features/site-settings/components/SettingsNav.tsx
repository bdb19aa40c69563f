export interface SettingsNavItem {
  id: string;
  label: string;
}

/** The in-page table of contents of /admin/settings: a sticky column on wide screens, a wrapped list of chips on phones. */
export function SettingsNav({ items }: { items: readonly SettingsNavItem[] }) {
  return (
    <nav className="site-settings__nav" aria-label="Settings sections">
      <p className="site-settings__nav-title">On this page</p>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={`#${item.id}`}>{item.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
