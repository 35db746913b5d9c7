import type { Request, Response } from "express";
import { preconditionFailedBody } from "../../src/api/schemas.ts";
import { conditionalFields, evaluateConditions, isConditional, servedLastModified } from "./conditional.ts";
import {
  type Coding,
  compress,
  type Encoded,
  MIN_COMPRESS_BYTES,
  negotiateCoding,
  STATIC_CODINGS,
  variantEtag,
} from "./content-coding.ts";

/**
 * Writes one representation with its validators and content coding, answering conditional GETs.
 * Static files and the dynamic routes both end here, so they behave identically.
 */
export interface Representation {
  /** Strong ETag of exactly these bytes (already the coded variant's). */
  etag: string;
  coding: Coding;
  contentType: string;
  cacheControl: string;
  /** Epoch ms, and the same as an HTTP date formatted once by the caller. */
  lastModifiedMs?: number;
  lastModified?: string;
  link?: string;
  /** Whether the coding was negotiated, i.e. the response varies by Accept-Encoding. */
  vary: boolean;
}

/**
 * Answers 412 when a precondition fails; otherwise sets the headers, then answers 304 or sends
 * `body()`, which is only called when a body is sent. A HEAD gets Content-Length from `headLength`
 * when given: undefined there means the length is not known without making the body, and RFC 9110
 * (9.3.2) lets a HEAD leave out a field determined only while generating the content.
 */
export function writeRepresentation(
  req: Request,
  res: Response,
  r: Representation,
  body: () => Buffer,
  headLength: () => number | undefined = () => body().length,
): void {
  const now = Date.now();
  const { lastModified } = servedLastModified(r, now);
  // Conditions read the file's own date, not the clamped one sent (conditional.ts says why).
  const outcome = isConditional(req.headers)
    ? evaluateConditions(
        req.method,
        conditionalFields(req.headersDistinct),
        { etag: r.etag, lastModifiedMs: r.lastModifiedMs, lastModified: r.lastModified },
        now,
      )
    : "send";
  if (outcome === "precondition-failed") {
    preconditionFailed(res, r.etag);
    return;
  }
  res.setHeader("ETag", r.etag);
  res.setHeader("Cache-Control", r.cacheControl);
  if (r.vary) res.setHeader("Vary", "Accept-Encoding");
  if (lastModified !== undefined) {
    // Date from the same clock reading as the clamp: Node's own Date comes from a per-second
    // cache that lags when the event loop stalls, and Last-Modified must not be later (§8.8.2.1).
    res.setHeader("Date", httpDate(now));
    res.setHeader("Last-Modified", lastModified);
  }
  if (r.link) res.setHeader("Link", r.link);
  if (outcome === "not-modified") {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader("Content-Type", r.contentType);
  if (r.coding !== "identity") res.setHeader("Content-Encoding", r.coding);
  if (req.method === "HEAD") {
    const length = headLength();
    if (length !== undefined) res.setHeader("Content-Length", String(length));
    res.end();
    return;
  }
  const bytes = body();
  res.setHeader("Content-Length", String(bytes.length));
  res.end(bytes);
}

let dateMemo = { second: -1, text: "" };
/** `ms` as an HTTP date, formatted once a second. */
function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (dateMemo.second !== second) dateMemo = { second, text: new Date(second * 1000).toUTCString() };
  return dateMemo.text;
}

/** 412 in the API's error shape; the body names the current ETag so the client can read it again. */
function preconditionFailed(res: Response, etag: string): void {
  const body = JSON.stringify(preconditionFailedBody(etag));
  res.statusCode = 412;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", String(Buffer.byteLength(body)));
  res.end(body);
}

/** A file of the build with the headers the build computed. */
export interface Resource {
  body: Buffer;
  /** Compress whatever the type (the log's entry bundles are JSON text as octet-stream); default: by type. */
  compressible?: boolean;
  etag: string;
  contentType: string;
  cacheControl: string;
  lastModifiedMs?: number;
  link?: string;
}

const COMPRESSIBLE = /^(application\/(json|atom\+xml|feed\+json)|text\/|image\/svg\+xml)/;

/**
 * A static resource's representations, made on first use and kept with the resource: each coded
 * body is compressed once per build, and everything a 304 needs (the variant's ETag, the HTTP
 * date) is computed once rather than per request. A HEAD never compresses: it names the coded
 * length once a GET has made that body. Otherwise the first HEAD after a build (a monitor, or
 * a client checking the ETag) held the event loop while the file was compressed: 0.17 s for
 * `/reviews.json` at 10,000 reviews.
 */
export function staticRepresentations(r: Resource): (req: Request, res: Response) => void {
  // A small file is sent as it is: a coding's header and trailer would make it larger.
  const compressible = r.body.length >= MIN_COMPRESS_BYTES && (r.compressible ?? COMPRESSIBLE.test(r.contentType));
  const lastModified = r.lastModifiedMs === undefined ? undefined : new Date(r.lastModifiedMs).toUTCString();
  const reps = new Map<Coding, { rep: Representation; body?: Buffer }>();
  const variant = (coding: Coding) => {
    let v = reps.get(coding);
    if (!v) {
      v = {
        rep: {
          etag: variantEtag(r.etag, coding),
          coding,
          contentType: r.contentType,
          cacheControl: r.cacheControl,
          lastModifiedMs: r.lastModifiedMs,
          lastModified,
          link: r.link,
          vary: compressible,
        },
      };
      reps.set(coding, v);
    }
    return v;
  };
  return (req, res) => {
    const coding = compressible ? negotiateCoding(req.headers["accept-encoding"], STATIC_CODINGS) : "identity";
    const v = variant(coding);
    writeRepresentation(
      req,
      res,
      v.rep,
      () => {
        v.body ??= coding === "identity" ? r.body : compress(r.body, coding as Encoded, "static");
        return v.body;
      },
      () => (coding === "identity" ? r.body.length : v.body?.length),
    );
  };
}
