import '../route-rules.css';

/** The messages about one field of a rule, one per line, announced when they appear. */
export function RuleErrors({ id, messages }: { id: string; messages?: readonly string[] }) {
  if (!messages?.length) return null;
  return (
    <div className="field__error route-rules__field-error" id={id} role="alert">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
