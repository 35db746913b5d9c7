import type { RequestHandler } from "express";
import { HttpError } from "./error.ts";

/**
 * The answer to a method a known path does not take: 405 with `Allow` (RFC 9110 §15.5.6), not the
 * 404 of a path that does not exist, so a client learns what the path does take. A plain OPTIONS
 * (not a CORS preflight, which the CORS middleware answers first) gets 204 with the same `Allow`.
 * `methods` lists what the path takes besides OPTIONS; HEAD goes with GET.
 */
export function methodNotAllowed(methods: readonly string[]): RequestHandler {
  const allow = [...methods, "OPTIONS"].join(", ");
  return (req, res) => {
    res.setHeader("Allow", allow);
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    throw new HttpError(
      405,
      "method_not_allowed",
      `${req.method} is not allowed on ${req.path}; it takes ${methods.join(", ")}`,
    );
  };
}

/** What every file of the build takes. */
export const readOnly = methodNotAllowed(["GET", "HEAD"]);
