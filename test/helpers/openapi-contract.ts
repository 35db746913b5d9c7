import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { buildBeforeAll } from "./build-site.ts";
import { type McpTestApp, startMcpApp } from "./mcp-app.ts";
import { DocumentOracle, type OpenApiDoc, type Operation } from "./openapi-oracle.ts";

/**
 * What the contract tests share: the app (with /mcp) serving a build of the insights fixture, the
 * `/openapi.json` it serves, and the check of an answer against what that document declares.
 */

/** The public origin the contract tests' build is made for. */
export const CONTRACT_BASE = "https://reviews.contract.test";

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");

export interface ServedDocument {
  readonly app: McpTestApp;
  readonly doc: OpenApiDoc;
  readonly oracle: DocumentOracle;
  /** The build the app serves. */
  readonly distDir: string;
}

/** For a test file: the app and its document, ready before its tests and closed after them. */
export function servedDocument(): ServedDocument {
  const built = buildBeforeAll(FIXTURE, { BASE_URL: CONTRACT_BASE });
  let served: Omit<ServedDocument, "distDir"> | undefined;
  beforeAll(async () => {
    const app = await startMcpApp(built.distDir, { env: { BASE_URL: CONTRACT_BASE } });
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDoc;
    served = { app, doc, oracle: new DocumentOracle(doc) };
  });
  afterAll(async () => {
    await served?.app.close();
  });
  const get = () => {
    if (!served) throw new Error("servedDocument: read before its beforeAll ran");
    return served;
  };
  return {
    get app() {
      return get().app;
    },
    get doc() {
      return get().doc;
    },
    get oracle() {
      return get().oracle;
    },
    get distDir() {
      return built.distDir;
    },
  };
}

/** One request and its answer, the body parsed when it is JSON. */
export interface Exchange {
  status: number;
  headers: Headers;
  body: unknown;
  type: string;
}

export async function send(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<Exchange> {
  const res = await fetch(url, { method, headers, body });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    type,
    body: type.includes("json") && text ? JSON.parse(text) : text,
  };
}

/** The response matches what the document declares for its status: body schema and headers. */
export function conforms(oracle: DocumentOracle, o: Operation, ex: Exchange, context: string): void {
  const declared = o.responses[String(ex.status)];
  expect(declared, `${context}: status ${ex.status} is not declared`).toBeDefined();
  for (const [name, h] of Object.entries(declared?.headers ?? {})) {
    const value = ex.headers.get(name);
    if (h.required) expect(value, `${context}: declared header ${name}`).not.toBeNull();
    // A header's value is text; a number schema describes the number it spells.
    const typed = h.schema.type === "integer" || h.schema.type === "number" ? Number(value) : value;
    if (value !== null) expect(oracle.errors(h.schema, typed), `${context}: header ${name}: ${value}`).toEqual([]);
  }
  const content = declared?.content;
  if (!content) {
    expect(ex.body, `${context}: ${ex.status} declares no body`).toBe("");
    return;
  }
  const media = Object.keys(content).find((t) => ex.type.startsWith(t));
  expect(media, `${context}: Content-Type ${ex.type} not declared`).toBeDefined();
  expect(oracle.errors(content[media as string]?.schema ?? {}, ex.body), context).toEqual([]);
}
