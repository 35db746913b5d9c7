import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp, type TestApp } from "./app-server.ts";

/** An answer the proxy gives in place of the app's. */
export interface ProxyAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * The site at a BASE_URL fixed before the build: a loopback server on port 0, named
 * `http://localhost:<port>`, that forwards each request to the app `serve` started, so the site
 * a build continues and the site a monitor reads are the same. With no app served it answers 404
 * (nothing published). A test may set `answer` to answer a path itself, and `rewrite` to change
 * what the app answered; both are reset by `reset`.
 */
export interface SiteProxy {
  /** `http://localhost:<port>`, without a trailing slash. */
  base: string;
  answer: ((url: string) => ProxyAnswer | undefined) | undefined;
  /** Given the app's body as text: a new body (same status), a new answer, or undefined to forward it as it is. */
  rewrite: ((url: string, body: string, status: number) => string | ProxyAnswer | undefined) | undefined;
  /** Serves `distDir` at `base` until the returned app is closed. */
  serve(distDir: string): Promise<TestApp>;
  reset(): void;
  close(): Promise<void>;
}

export async function startSiteProxy(): Promise<SiteProxy> {
  let target: string | undefined;
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? "";
    const special = target ? site.answer?.(url) : { status: 404 };
    if (special) {
      res.writeHead(special.status, special.headers ?? {}).end(special.body);
      return;
    }
    const upstream = await fetch(`${target}${url}`, { method: req.method, redirect: "manual" });
    const bytes = Buffer.from(await upstream.arrayBuffer());
    const changed = site.rewrite?.(url, bytes.toString(), upstream.status);
    const answer = typeof changed === "string" ? { status: upstream.status, body: changed } : changed;
    res.writeHead(answer?.status ?? upstream.status, {
      "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
    });
    res.end(answer ? answer.body : bytes);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const site: SiteProxy = {
    base: `http://localhost:${(server.address() as AddressInfo).port}`,
    answer: undefined,
    rewrite: undefined,
    async serve(distDir) {
      const app = await startApp(distDir, { env: { BASE_URL: site.base } });
      target = app.url;
      return {
        ...app,
        close: async () => {
          target = undefined;
          await app.close();
        },
      };
    },
    reset() {
      site.answer = undefined;
      site.rewrite = undefined;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  return site;
}
