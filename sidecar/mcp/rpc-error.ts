import type { Response as ExpressResponse } from "express";

/**
 * The one JSON-RPC error envelope of `/mcp`, for answers made before a message reaches the SDK
 * (HTTP-level refusals, session rules, stream caps): written to an Express response or returned
 * as a web Response, with the same body either way.
 */

export type RpcId = string | number | null;

export function rpcErrorBody(code: number, message: string, id: RpcId = null, data?: unknown) {
  return { jsonrpc: "2.0" as const, error: data === undefined ? { code, message } : { code, message, data }, id };
}

/** A JSON-RPC error as a web Response (the SDK's handlers answer with those). */
export function rpcErrorResponse(
  status: number,
  code: number,
  message: string,
  id: RpcId = null,
  data?: unknown,
): Response {
  return Response.json(rpcErrorBody(code, message, id, data), { status });
}

/** Writes a JSON-RPC error with an HTTP status to an Express response. */
export function rpcError(res: ExpressResponse, status: number, code: number, message: string, id: RpcId = null): void {
  res.status(status).json(rpcErrorBody(code, message, id));
}
