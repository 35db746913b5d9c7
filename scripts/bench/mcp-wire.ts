import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/**
 * What the MCP section needs besides the SDK client: the exact requests an SDK client sends for a
 * `search_reviews` call, captured from a real client session so they can be replayed with plain
 * `fetch` (the HTTP side's client stack), and a server answering canned bytes, for the SDK
 * client's own cost.
 */

export type Era = "2025" | "2026";

/** One POST as the SDK client made it, and the answer it got. */
export interface Exchange {
  headers: Record<string, string>;
  body: string;
  status: number;
  responseHeaders: Record<string, string>;
  response: string;
}

/** A connected SDK client whose every POST (headers, body and answer) is recorded. */
export interface RecordedClient {
  client: Client;
  exchanges: Exchange[];
}

/**
 * An SDK client (`versionNegotiation` pinned to 2026-07-28 for "2026", the default 2025 handshake
 * otherwise) whose fetch records each POST; the recording reads a clone of every answer, so this
 * client is for capturing, never for timing.
 */
export async function recordedClient(endpoint: string, era: Era): Promise<RecordedClient> {
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (url, init) => {
    const res = await fetch(url, init);
    if (init?.method === "POST") {
      exchanges.push({
        headers: Object.fromEntries(new Headers(init.headers)),
        body: String(init.body),
        status: res.status,
        responseHeaders: Object.fromEntries(res.headers),
        response: await res.clone().text(),
      });
    }
    return res;
  };
  const client = new Client(
    { name: "public-reviews-bench", version: "1.0.0" },
    era === "2026" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: recording }));
  await client.listTools();
  return { client, exchanges };
}

/** The request the SDK client sends for `search_reviews` with `args`: its last POST after the call. */
export async function captureCall(recorded: RecordedClient, args: Record<string, unknown>): Promise<Exchange> {
  const result = await recorded.client.callTool({ name: "search_reviews", arguments: args });
  if (result.isError) throw new Error(`search_reviews ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
  const last = recorded.exchanges.at(-1);
  if (!last?.body.includes('"tools/call"')) throw new Error("the SDK client's tools/call was not recorded");
  return last;
}

/** `exchange` replayed with plain fetch, its answer parsed as the HTTP side parses its own. */
export async function replay(endpoint: string, exchange: Exchange): Promise<void> {
  const res = await fetch(endpoint, { method: "POST", headers: exchange.headers, body: exchange.body });
  const answer = (await res.json()) as { result?: { isError?: boolean } };
  if (res.status !== 200 || !answer.result || answer.result.isError) {
    throw new Error(`replayed tools/call: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** Canned answers: the MCP exchanges of a 2025 session, and HTTP bodies by path and query. */
export interface Canned {
  exchanges: Exchange[];
  http: Map<string, string>;
}

/**
 * A `node:http` server that does no work: it answers the SDK client's POSTs with the recorded
 * answers (matched on the body without its id, the id put back) and GETs of the HTTP search with
 * the recorded bodies. What a client needs to call against it is the client's own cost.
 */
export async function cannedServer(canned: Canned): Promise<{ url: string; close(): Promise<void> }> {
  const withoutId = (body: string) => {
    const { id: _id, ...rest } = JSON.parse(body) as Record<string, unknown>;
    return JSON.stringify(rest);
  };
  const answers = new Map(canned.exchanges.map((e) => [withoutId(e.body), e]));
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/api/")) {
      const body = canned.http.get(req.url);
      if (body === undefined) return res.writeHead(404).end();
      return res
        .writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        .end(body);
    }
    if (req.method !== "POST") return res.writeHead(405, { allow: "POST" }).end();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const found = answers.get(withoutId(text));
      if (!found) return res.writeHead(404).end();
      const id = (JSON.parse(text) as { id?: unknown }).id;
      const body = found.response.replace(/"id":[^,}]*\}$/, `"id":${JSON.stringify(id ?? null)}}`);
      const headers: Record<string, string> = {
        ...found.responseHeaders,
        "content-length": String(Buffer.byteLength(body)),
      };
      delete headers["transfer-encoding"];
      res.writeHead(found.status, headers).end(found.status === 202 ? undefined : body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
