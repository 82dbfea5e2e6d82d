/**
 * A browser's part in a redirect flow, without the browser: follows redirects one by one,
 * keeping each origin's cookies, until an address the test wants to look at.
 */
export class RedirectWalker {
  private readonly jars = new Map<string, Map<string, string>>();

  /** The cookies this walker holds for an origin, as a Cookie header. */
  cookieHeader(origin: string): string {
    return [...(this.jars.get(origin) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(origin, jar);
  }

  /** One request, its cookies kept; the answer with its redirect target made absolute. */
  async step(url: string): Promise<{ status: number; location: string | null; body: string }> {
    const origin = new URL(url).origin;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(origin) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.jars.get(origin)?.delete(name);
      else this.setCookie(origin, name, value);
    }
    const location = res.headers.get('location');
    return {
      status: res.status,
      location: location ? new URL(location, url).href : null,
      body: await res.text(),
    };
  }

  /**
   * Follows redirects from `url` until `stop` says an address is the test's to look at (not
   * requested), or a page answers without a redirect. At most 20 steps.
   */
  async walk(url: string, stop: (next: URL) => boolean = () => false): Promise<URL> {
    let next = url;
    for (let i = 0; i < 20; i += 1) {
      if (stop(new URL(next))) return new URL(next);
      const answer = await this.step(next);
      if (!answer.location) return new URL(next);
      next = answer.location;
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }
}
