import { type SpecTypeName, specTypeSchemas } from "@modelcontextprotocol/server";
import { describeIssue, issuePath } from "../../src/api/schema-issues.ts";
import { isIJsonText } from "../../src/content/characters.ts";

/**
 * Checks on a POST body made before any server instance exists, so malformed or costly input is
 * refused for the price of a type check.
 */

/**
 * The most characters a string id may have. JSON-RPC 2.0 §5 has an answer carry its request's id
 * as sent, so an id cannot be cut as an echoed value is: a longer one is refused instead.
 */
export const MAX_ID_CHARACTERS = 256;

/** Code points of a string id past MAX_ID_CHARACTERS, or undefined. */
function idTooLong(id: unknown): number | undefined {
  if (typeof id !== "string" || id.length <= MAX_ID_CHARACTERS) return undefined;
  const n = Array.from(id).length;
  return n > MAX_ID_CHARACTERS ? n : undefined;
}

/** Why a body is not one JSON-RPC 2.0 message, or undefined when it is one. Batches are checked apart. */
export function invalidMessage(body: unknown): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return `expected a JSON-RPC 2.0 message object, got ${body === null ? "null" : typeof body}`;
  }
  const jsonrpc = (body as { jsonrpc?: unknown }).jsonrpc;
  if (jsonrpc !== "2.0") return `jsonrpc must be "2.0", got ${JSON.stringify(jsonrpc) ?? "nothing"}`;
  const kind = messageKind(body);
  if (!kind)
    return "a JSON-RPC 2.0 message has a method (a request or notification), or a result or an error (a response)";
  const { issues = [] } = specTypeSchemas[kind.type]["~standard"].validate(body) as {
    issues?: readonly SchemaIssue[];
  };
  const long = idTooLong((body as { id?: unknown }).id);
  if (issues.length === 0 && long === undefined) return undefined;
  // A key of no message is named in the issue: a client's text, clipped as a path is.
  const why = issues.map((issue) =>
    issuePath(issue) === "id" ? badId((body as { id?: unknown }).id) : clipped(describeIssue(issue)),
  );
  if (long !== undefined) why.unshift(`id: a string id may have at most ${MAX_ID_CHARACTERS} characters, got ${long}`);
  return `not a JSON-RPC 2.0 ${kind.noun}: ${why.join("; ")}`;
}

type SchemaIssue = Parameters<typeof describeIssue>[0];

/** Which of the four messages a body means to be, by the members that tell them apart (the SDK's own schemas say what is wrong). */
function messageKind(body: object): { type: SpecTypeName; noun: string } | undefined {
  if ("method" in body)
    return "id" in body
      ? { type: "JSONRPCRequest", noun: "request" }
      : { type: "JSONRPCNotification", noun: "notification" };
  if ("result" in body) return { type: "JSONRPCResultResponse", noun: "response" };
  if ("error" in body) return { type: "JSONRPCErrorResponse", noun: "error response" };
  return undefined;
}

/** The SDK says only "Invalid input" of an id; MCP's is a string or an integer, never null. Not echoed whole: it may be 60 KB. */
function badId(id: unknown): string {
  // JSON.parse rounds such an integer (9007199254740993 reads as ...992): quoting it would name an id never sent.
  if (typeof id === "number" && Number.isInteger(id) && !Number.isSafeInteger(id)) {
    return `id: an integer beyond ±${Number.MAX_SAFE_INTEGER} cannot be read exactly (I-JSON, RFC 7493 §2.2); send it as a string`;
  }
  const got =
    typeof id === "number"
      ? String(id)
      : id === null
        ? "null"
        : Array.isArray(id)
          ? "an array"
          : typeof id === "object"
            ? "an object"
            : `a ${typeof id}`;
  return `id: expected a string or an integer, got ${got}`;
}

/**
 * The id to echo in an error about this body, when it has a usable one: a string of at most
 * MAX_ID_CHARACTERS, or an integer read exactly (JSON.parse rounds one beyond 2^53-1, and the
 * client would not know the answer as its own).
 */
export function idOf(body: unknown): string | number | null {
  const id = body && typeof body === "object" && !Array.isArray(body) ? (body as { id?: unknown }).id : null;
  if (typeof id === "string") return idTooLong(id) === undefined ? id : null;
  return Number.isSafeInteger(id) ? (id as number) : null;
}

/**
 * Why a JSON-RPC batch (an array body) is refused. 2025-06-18 removed batching and 2026-07-28 did
 * not bring it back. 2025-03-26 allowed it; it is refused there too: one POST of 100 searches
 * returned 23 MB, blocked the event loop for 0.4 s and counted once against the rate limit, and
 * every tool here is a cheap read that an HTTP keep-alive connection sends one by one as fast.
 * The SDK clients never send batches.
 */
export function batchRefusal(body: unknown[], protocolVersion: string | undefined): string {
  if (body.length === 0) return "an empty batch is not a JSON-RPC request";
  const version = protocolVersion ?? "any";
  const why =
    protocolVersion !== undefined && protocolVersion >= "2025-06-18"
      ? `protocol version ${version} does not allow JSON-RPC batches`
      : "this server does not accept JSON-RPC batches (each message costs a search; see docs/mcp.md)";
  const how =
    body.length === 1
      ? "send the message on its own, not in an array"
      : `send each of the ${body.length} messages in its own POST`;
  return `${why}; ${how}`;
}

/**
 * Nesting allowed in a POST body. A JSON-RPC message to this server nests a few levels; the SDK's
 * schemas recurse once per level, so a deeper body would only cost stack (30,000 levels overflowed it).
 */
export const MAX_NESTING = 64;

/** A step of a path through a body, built into text only when a problem is found there. */
type Step = { parent: Step; key: string; index: boolean } | undefined;

/** The JSON path of `step` ("$.params.name", "$[0]"): at most 200 characters, never half of one. */
function pathOf(step: Step): string {
  const keys: string[] = [];
  for (let s = step; s; s = s.parent) keys.push(s.index ? `[${s.key}]` : `.${JSON.stringify(s.key).slice(1, -1)}`);
  return clipped(`$${keys.reverse().join("")}`);
}

/** `text` cut to its first 200 characters (never half of one), marked with "…" where cut. */
function clipped(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200).toWellFormed()}…` : text;
}

/** Why a value found by `bodyProblem` is not I-JSON, after the JSON path that names it. */
const NOT_IJSON = {
  text: "holds a lone surrogate or a noncharacter, which I-JSON (RFC 7493 §2.1) forbids; send well-formed Unicode text",
  number:
    "is a number beyond the range of a double, which I-JSON (RFC 7493 §2.2) rules out: it reads as infinity, which no answer can quote; send a number from -1.7e308 to 1.7e308",
  name: "is given twice in its object, which I-JSON (RFC 7493 §2.3) forbids: JSON.parse would keep the last silently; send each name once",
};

/** The refusal of a body that gives a name twice in one object (src/content/json-names.ts finds its path). */
export const nameGivenTwice = (path: string) => `${path} ${NOT_IJSON.name}`;

/**
 * One walk of a parsed POST body (iterative: no recursion to overflow) for what is refused before
 * anything else reads it: arrays or objects nested more than `max` deep (`deep`, whatever else is
 * wrong: the SDK's schemas recurse once per level), or the first value that is not I-JSON, as its
 * JSON path and why (`nonIJson`): a string or key holding a lone surrogate or a noncharacter
 * (RFC 7493 §2.1), or a number JSON.parse read as ±Infinity (§2.2: `1e400`), which a tool's
 * error would quote as `null`, as if it had not been sent. Such a message is refused whole: the
 * SDK echoes ids, tool names and URIs in its errors, and no reply may carry them.
 */
export function bodyProblem(value: unknown, max: number): { deep: true } | { nonIJson: string } | undefined {
  let nonIJson: string | undefined;
  const stack: [unknown, number, Step][] = [[value, 0, undefined]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth, step] = next;
    if (typeof node === "string") {
      if (nonIJson === undefined && !isIJsonText(node)) nonIJson = `${pathOf(step)} ${NOT_IJSON.text}`;
      continue;
    }
    if (typeof node === "number") {
      if (nonIJson === undefined && !Number.isFinite(node)) nonIJson = `${pathOf(step)} ${NOT_IJSON.number}`;
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (depth >= max) return { deep: true };
    const index = Array.isArray(node);
    for (const [key, child] of Object.entries(node)) {
      if (nonIJson === undefined && !isIJsonText(key)) nonIJson = `${pathOf(step)} (a key) ${NOT_IJSON.text}`;
      stack.push([child, depth + 1, { parent: step, key, index }]);
    }
  }
  return nonIJson === undefined ? undefined : { nonIJson };
}

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/;

/**
 * The first `Mcp-Name` or `Mcp-Param-*` header, and why, whose `=?base64?…?=` value decodes to text I-JSON
 * forbids. A header itself is Latin-1 and cannot hold one, but the SDK decodes that form and
 * quotes the text in its errors (a name that disagrees with the body).
 */
export function nonIJsonHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name !== "mcp-name" && !name.startsWith("mcp-param-")) continue;
    for (const one of [value ?? []].flat()) {
      const b64 = SENTINEL.exec(one)?.[1];
      if (b64 !== undefined && !isIJsonText(Buffer.from(b64, "base64").toString("utf8")))
        return `${name} ${NOT_IJSON.text}`;
    }
  }
  return undefined;
}
