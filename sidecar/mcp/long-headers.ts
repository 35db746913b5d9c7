import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { echoedText, MAX_ECHOED_CHARACTERS } from "../../src/api/echoed-values.ts";
import { idOf } from "./messages.ts";
import { rpcErrorResponse } from "./rpc-error.ts";

/**
 * Refusals of an `Mcp-Protocol-Version` or `Mcp-Method` header that the SDK words with the header
 * quoted whole (up to the 16 KiB of headers, in the message and again in `data`), made here first
 * in the same words with each value cut as an echoed value is. Only a value longer than
 * MAX_ECHOED_CHARACTERS is taken here; shorter ones are left to the SDK's own checks.
 */

/** The 400 of an unsupported `Mcp-Protocol-Version`, in the SDK transport's words. */
export function unsupportedVersionResponse(version: string): Response {
  const supported = SUPPORTED_PROTOCOL_VERSIONS.join(", ");
  return rpcErrorResponse(
    400,
    -32000,
    `Bad Request: Unsupported protocol version: ${echoedText(version)} (supported versions: ${supported})`,
  );
}

/** The error code of a 2026-07-28 request whose headers and body disagree (the SDK's). */
const HEADER_MISMATCH = -32020;

/** A refusal of `request` (with its parsed `body`) for a long header, or undefined. */
export function longHeaderRefusal(request: Request, body: unknown): Response | undefined {
  const version = request.headers.get("mcp-protocol-version");
  // No protocol version is that long: whichever era would read it, it is unsupported.
  if (version !== null && version.length > MAX_ECHOED_CHARACTERS) return unsupportedVersionResponse(version);
  const header = request.headers.get("mcp-method");
  const method = (body as { method?: unknown } | undefined)?.method;
  if (header === null || typeof method !== "string" || header === method) return undefined;
  if (header.length <= MAX_ECHOED_CHARACTERS && method.length <= MAX_ECHOED_CHARACTERS) return undefined;
  const why = `the body names method ${echoedText(method)} but the Mcp-Method header names ${echoedText(header)}`;
  return rpcErrorResponse(
    400,
    HEADER_MISMATCH,
    `Bad Request: the request headers and body disagree: ${why}`,
    idOf(body),
    {
      mismatch: { header: echoedText(header), body: why },
    },
  );
}
