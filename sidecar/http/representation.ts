import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Request, Response } from "express";
import { isNotModified } from "./conditional.ts";

/**
 * Sends one resource with its validators, content coding and conditional-GET handling. Used by the
 * static files and the since route, so both behave identically.
 *
 * A compressed representation gets its own strong ETag (`"<tag>-br"` / `"<tag>-gz"`): RFC 9110
 * says a strong validator identifies exact bytes, and the br and identity bytes differ.
 */
export interface Resource {
  body: Buffer;
  etag: string;
  contentType: string;
  cacheControl: string;
  lastModifiedMs?: number;
  link?: string;
  /** Memo of compressed bodies, owned by the caller so it can be dropped with the resource. */
  encoded?: Map<string, Buffer>;
}

const COMPRESSIBLE = /^(application\/(json|atom\+xml|feed\+json)|text\/|image\/svg\+xml)/;

export type Coding = "br" | "gzip" | "identity";

/** Picks br, then gzip, from Accept-Encoding (q-values honoured; q=0 refuses). */
export function negotiateCoding(header: string | undefined): Coding {
  if (!header) return "identity";
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const accept = (c: string) => (q.get(c) ?? q.get("*") ?? 0) > 0;
  if (accept("br")) return "br";
  if (accept("gzip")) return "gzip";
  return "identity";
}

export function variantEtag(etag: string, coding: Coding): string {
  if (coding === "identity") return etag;
  return `${etag.slice(0, -1)}-${coding === "br" ? "br" : "gz"}"`;
}

function encode(r: Resource, coding: Exclude<Coding, "identity">): Buffer {
  const memo = r.encoded?.get(coding);
  if (memo) return memo;
  const out =
    coding === "br"
      ? brotliCompressSync(r.body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: r.body.length },
        })
      : gzipSync(r.body, { level: 6 });
  r.encoded?.set(coding, out);
  return out;
}

export function sendResource(req: Request, res: Response, r: Resource): void {
  // Decided from the type alone so a 304 never needs the body (it may be built lazily).
  const compressible = COMPRESSIBLE.test(r.contentType);
  const coding = compressible ? negotiateCoding(req.headers["accept-encoding"]) : "identity";
  const etag = variantEtag(r.etag, coding);
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", r.cacheControl);
  if (compressible) res.setHeader("Vary", "Accept-Encoding");
  if (r.lastModifiedMs !== undefined) res.setHeader("Last-Modified", new Date(r.lastModifiedMs).toUTCString());
  if (r.link) res.setHeader("Link", r.link);
  if (isNotModified(req.headers, { etag, lastModifiedMs: r.lastModifiedMs })) {
    res.status(304).end();
    return;
  }
  const body = coding === "identity" ? r.body : encode(r, coding);
  res.setHeader("Content-Type", r.contentType);
  if (coding !== "identity") res.setHeader("Content-Encoding", coding);
  res.setHeader("Content-Length", String(body.length));
  if (req.method === "HEAD") res.end();
  else res.end(body);
}
