import { AppLogUserProperties } from '../../../../client/features/applog/components/AppLogUserProperties.js';
import type { SourceView } from '../state/session.js';

/** The user properties of the selected entry's source (or the first source that has any). */
export function UserPropertiesPanel({ sources, selectedSource }: { sources: SourceView[]; selectedSource: string | null }) {
  const source = sources.find((each) => each.id === selectedSource) ?? sources.find((each) => each.userProperties.length) ?? null;
  if (!source || !source.userProperties.length) return null;
  return (
    <div className="desk-properties">
      {sources.length > 1 ? <p className="muted desk-properties__of">Of {source.label}</p> : null}
      <AppLogUserProperties properties={source.userProperties} onSelect={() => undefined} />
    </div>
  );
}
