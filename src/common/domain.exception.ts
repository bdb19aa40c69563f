/**
 * Base class for errors a module raises on purpose. Each module defines its own subclass with a
 * code enum; the global filter turns any of them into the JSON error shape (or an error page)
 * exactly once, so services never import HTTP concerns.
 */
export abstract class DomainException<Code extends string = string> extends Error {
  abstract readonly status: number;

  /** Messages per request field, when the error is about one field (a form shows them beside it). */
  get fields(): Record<string, string[]> | undefined {
    return undefined;
  }

  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
