import zlib from "node:zlib";
import type { Request, RequestHandler } from "express";
import { shownValue } from "../src/api/echoed-values.ts";

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

/** The labels of UTF-8 in the WHATWG Encoding Standard, lower case. */
const UTF8_LABELS: ReadonlySet<string> = new Set([
  "unicode-1-1-utf-8",
  "unicode11utf8",
  "unicode20utf8",
  "utf-8",
  "utf8",
  "x-unicode20utf8",
]);

/**
 * A `Content-Type` charset that is a label of UTF-8 (`utf8`, `"UTF-8"`, `unicode-1-1-utf-8`) read
 * as `utf-8`, on both edges that read a body: body-parser knows the name `utf-8` alone and would
 * refuse `utf8` as another charset. Any other charset is left for the edge to refuse.
 */
export const utf8CharsetLabels: RequestHandler = (req, _res, next) => {
  const type = req.headers["content-type"];
  if (type !== undefined && /charset/i.test(type)) {
    req.headers["content-type"] = type.replace(
      /(;\s*charset\s*=\s*)("?)([^";]*)\2/i,
      (whole, prefix: string, _quote, label: string) =>
        UTF8_LABELS.has(label.trim().toLowerCase()) ? `${prefix}utf-8` : whole,
    );
  }
  next();
};

/** body-parser's refusal of a coding it cannot decode, its `encoding` quoted as an echoed value is cut. */
export function unsupportedCoding(err: { encoding?: unknown }): string {
  return `unsupported content encoding ${shownValue(err.encoding)}`;
}
