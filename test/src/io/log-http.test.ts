import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main as logVerify } from "../../../scripts/log-verify.ts";
import { fetchBytes, LogFetchError } from "../../../src/io/log-http.ts";
import { generateKeyPair } from "../../../src/log/note-keys.ts";

/**
 * The log's HTTP reads are bounded whatever the server does: a body with no Content-Length that
 * never ends, a small gzip body that inflates past the limit, a body that stalls after the headers.
 */

const MiB = 1024 * 1024;
/** Bytes the endless answer has sent, so the test can tell that the reader stopped early. */
let sent = 0;
/** Requests per path of the rate-limited answers. */
const asked = new Map<string, number>();
const server = http.createServer((req, res) => {
  if (req.url === "/endless") {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const pump = () => {
      while (!res.destroyed && sent < 64 * MiB && res.write(chunk)) sent += chunk.length;
    };
    res.on("drain", pump);
    pump();
  } else if (req.url === "/bomb") {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-encoding": "gzip" });
    res.end(gzipSync(Buffer.alloc(8 * MiB)));
  } else if (req.url?.startsWith("/busy/")) {
    // A rate limit: 429 with Retry-After (the path's last part, in seconds) the first two times.
    const seen = (asked.get(req.url) ?? 0) + 1;
    asked.set(req.url, seen);
    if (seen <= 2 || req.url.includes("/always/"))
      res.writeHead(429, { "retry-after": req.url.split("/").at(-1) as string }).end("slow down");
    else res.writeHead(200).end("at last");
  } else if (req.url?.endsWith("/checkpoint")) {
    // Headers, then one byte, then nothing: the deadline must end the read.
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.write("x");
  } else res.writeHead(404).end();
});
let base: string;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("fetchBytes (log-http.ts)", () => {
  it("stops reading a body without Content-Length once it passes the limit", async () => {
    const err = await fetchBytes(`${base}/endless`, { maxBytes: MiB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogFetchError);
    expect((err as Error).message).toBe(`GET ${base}/endless: more than ${MiB} bytes`);
    expect(sent).toBeLessThan(64 * MiB);
  });

  it("counts the bytes a compressed body inflates to", async () => {
    const err = await fetchBytes(`${base}/bomb`, { maxBytes: MiB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogFetchError);
    expect((err as Error).message).toBe(`GET ${base}/bomb: more than ${MiB} bytes`);
  });

  it("turns a body that stalls past the deadline into a LogFetchError naming the URL", async () => {
    const err = await fetchBytes(`${base}/log/checkpoint`, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogFetchError);
    expect((err as Error).message).toMatch(new RegExp(`^GET ${base}/log/checkpoint failed while reading: `));
  });

  it("waits as long as a 429's Retry-After asks, then reads the answer", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const bytes = await fetchBytes(`${base}/busy/once/2`, { sleep, retries: 5 });
    expect(Buffer.from(bytes ?? []).toString()).toBe("at last");
    expect(waits).toEqual([2000, 2000]);
  });

  it("does not wait unless asked to (a build or npm run check fails at once, not after minutes)", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    await expect(fetchBytes(`${base}/busy/always/60`, { sleep })).rejects.toThrow(
      `GET ${base}/busy/always/60 answered 429`,
    );
    expect(waits).toEqual([]);
  });

  it("gives up on a 429 after five waits, or at once when it asks for more than a minute", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    await expect(fetchBytes(`${base}/busy/always/1`, { sleep, retries: 5 })).rejects.toThrow(
      `GET ${base}/busy/always/1 answered 429`,
    );
    expect(waits).toEqual([1000, 1000, 1000, 1000, 1000]);
    await expect(fetchBytes(`${base}/busy/always/3600`, { sleep, retries: 5 })).rejects.toThrow(
      `GET ${base}/busy/always/3600 answered 429`,
    );
    expect(waits).toHaveLength(5);
  });

  it("log:verify says so in one line and exits 1, with no stack trace", async () => {
    const err: string[] = [];
    // log:verify's own deadline is 30 s; this one ends the read sooner.
    const stalled: typeof fetch = (url, init) =>
      fetch(url, {
        ...init,
        signal: AbortSignal.any([...(init?.signal ? [init.signal] : []), AbortSignal.timeout(300)]),
      });
    const code = await logVerify({
      argv: ["--url", `${base}/log`, "--key", generateKeyPair("x.example/log").vkey],
      now: new Date(0),
      out: () => {},
      err: (l) => err.push(l),
      fetch: stalled,
    });
    expect(code).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^log:verify: GET ${base}/log/checkpoint failed while reading: `));
  });
});
