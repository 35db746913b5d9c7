import zlib from "node:zlib";
import type { Request, RequestHandler } from "express";

/**
 * The content codings of request bodies, shared by the two edges that read one (`/mcp` and the
 * WebSub hub), neither of which goes through the HTTP routes: those body-parser 2 decodes, zstd
 * where Node's zlib has it. A 415 for another names them in `Accept-Encoding` (RFC 9110 §12.5.3).
 */
export const REQUEST_BODY_CODINGS = ["gzip", "deflate", "br", ...("createZstdDecompress" in zlib ? ["zstd"] : [])].join(
  ", ",
);

/**
 * `Content-Encoding: x-gzip` read as `gzip`, as RFC 9110 §8.4.1.3 asks of a recipient, on both
 * edges that read a body: body-parser knows only `gzip`, so such a body got 415 as an unknown coding.
 */
export const xGzipAsGzip: RequestHandler = (req, _res, next) => {
  const coding = req.headers["content-encoding"];
  if (coding !== undefined && /x-gzip/i.test(coding)) {
    req.headers["content-encoding"] = coding
      .split(",")
      .map((c) => (c.trim().toLowerCase() === "x-gzip" ? "gzip" : c.trim()))
      .join(", ");
  }
  next();
};

/**
 * The `Content-Encoding` a body did not decode as, when body-parser's error `err` is a
 * decompressor's (zlib's "incorrect header check", passed on with status 400 and no type).
 */
export function undecodedCoding(
  err: { status?: unknown; type?: unknown } | undefined,
  req: Request,
): string | undefined {
  const coding = req.headers["content-encoding"];
  return err?.status === 400 && err.type === undefined ? coding : undefined;
}
