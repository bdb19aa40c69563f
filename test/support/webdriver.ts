/**
 * A small W3C WebDriver client (the dozen commands the desktop app's suite uses), over `fetch`:
 * tauri-driver proxies it to Debian's WebKitWebDriver, which drives the app's WebKitGTK webview.
 * Playwright cannot attach to WebKitGTK, and a full client (WebdriverIO) would bring a hundred
 * packages for this.
 */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class WebDriverError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`WebDriver ${code}: ${message}`);
  }
}

export class Element {
  constructor(
    readonly session: Session,
    readonly id: string,
  ) {}

  private path(suffix = '') {
    return `/element/${this.id}${suffix}`;
  }

  click() {
    return this.session.command('POST', this.path('/click'), {});
  }

  async text(): Promise<string> {
    return (await this.session.command('GET', this.path('/text'))) as string;
  }

  async attribute(name: string): Promise<string | null> {
    return (await this.session.command('GET', this.path(`/attribute/${encodeURIComponent(name)}`))) as string | null;
  }

  async enabled(): Promise<boolean> {
    return (await this.session.command('GET', this.path('/enabled'))) as boolean;
  }

  async type(text: string) {
    await this.session.command('POST', this.path('/value'), { text });
  }

  async clear() {
    await this.session.command('POST', this.path('/clear'), {});
  }

  async find(css: string): Promise<Element> {
    const value = (await this.session.command('POST', this.path('/element'), { using: 'css selector', value: css })) as Record<
      string,
      string
    >;
    return new Element(this.session, value[ELEMENT]);
  }

  async findAll(css: string): Promise<Element[]> {
    const list = (await this.session.command('POST', this.path('/elements'), { using: 'css selector', value: css })) as Record<
      string,
      string
    >[];
    return list.map((value) => new Element(this.session, value[ELEMENT]));
  }

  /** For execute(): the element as a script argument. */
  toJSON() {
    return { [ELEMENT]: this.id };
  }
}

export class Session {
  constructor(
    readonly base: string,
    readonly id: string,
  ) {}

  static async create(base: string, capabilities: Record<string, unknown>): Promise<Session> {
    const response = await fetch(`${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities: { alwaysMatch: capabilities } }),
    });
    const body = (await response.json()) as { value: { sessionId?: string; error?: string; message?: string } };
    if (!response.ok || !body.value.sessionId) {
      throw new WebDriverError(response.status, body.value.error ?? 'session not created', body.value.message ?? JSON.stringify(body));
    }
    return new Session(base, body.value.sessionId);
  }

  /** One command; a driver that does not answer within `timeoutMs` fails it rather than the whole suite's time. */
  async command(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = 30_000): Promise<unknown> {
    const response = await fetch(`${this.base}/session/${this.id}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as { value: unknown }) : { value: null };
    if (!response.ok) {
      const value = parsed.value as { error?: string; message?: string };
      throw new WebDriverError(response.status, value?.error ?? 'unknown error', value?.message ?? text);
    }
    return parsed.value;
  }

  async find(css: string): Promise<Element> {
    const value = (await this.command('POST', '/element', { using: 'css selector', value: css })) as Record<string, string>;
    return new Element(this, value[ELEMENT]);
  }

  async findAll(css: string): Promise<Element[]> {
    const list = (await this.command('POST', '/elements', { using: 'css selector', value: css })) as Record<string, string>[];
    return list.map((value) => new Element(this, value[ELEMENT]));
  }

  /** The first element matching an XPath expression (to find a button by its words). */
  async findXPath(xpath: string): Promise<Element> {
    const value = (await this.command('POST', '/element', { using: 'xpath', value: xpath })) as Record<string, string>;
    return new Element(this, value[ELEMENT]);
  }

  /** The button (or tab) whose text is `text`, inside `scope` (CSS) when given. */
  button(text: string, scope?: string): Promise<Element> {
    const within = scope ? `//*[contains(concat(' ', @data-testid, ' '), ' ${scope} ')]` : '';
    return this.findXPath(`${within}//button[normalize-space()=${JSON.stringify(text)}]`);
  }

  /** Runs `script` (a function body) in the page; arguments may be Elements. */
  execute<T>(script: string, ...args: unknown[]): Promise<T> {
    return this.command('POST', '/execute/sync', { script, args }) as Promise<T>;
  }

  /** Runs `script` with a `done` callback as its last argument (W3C execute/async). */
  executeAsync<T>(script: string, ...args: unknown[]): Promise<T> {
    return this.command('POST', '/execute/async', { script, args }) as Promise<T>;
  }

  /**
   * A PNG of the window's content, after two animation frames: WebKitGTK under Xvfb hands out the
   * last frame it painted, which can be a step behind the page.
   */
  async screenshot(): Promise<Buffer> {
    await this.executeAsync(
      'const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));',
    );
    return Buffer.from((await this.command('GET', '/screenshot')) as string, 'base64');
  }

  setWindowRect(rect: { width: number; height: number }) {
    return this.command('POST', '/window/rect', rect);
  }

  async close() {
    await fetch(`${this.base}/session/${this.id}`, { method: 'DELETE' }).catch(() => undefined);
  }

  /** Polls `check` until it returns something truthy; fails with `what` after `timeoutMs`. */
  async waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
    const started = Date.now();
    let lastError: unknown = null;
    for (;;) {
      try {
        const value = await check();
        if (value) return value;
      } catch (error) {
        lastError = error;
      }
      if (Date.now() - started > timeoutMs) {
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  /** The texts of every element matching `css`, read in the page in one call. */
  texts(css: string): Promise<string[]> {
    return this.execute<string[]>(`return [...document.querySelectorAll(arguments[0])].map((element) => element.textContent.trim());`, css);
  }
}
