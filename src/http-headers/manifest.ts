import { createHash, type Hash } from "node:crypto";
import { z } from "zod";
import { type SiteUrls, TOPIC_PATHS } from "../urls.ts";
import { lastModifiedOf } from "./last-modified.ts";
import { SECURITY_HEADERS } from "./security.ts";

/**
 * Per-file HTTP headers computed at build time: one strong ETag (a content hash) per file plus the
 * Content-Type, Cache-Control, Last-Modified (last-modified.ts) and WebSub Link headers. Written twice from the same
 * data: `_headers.json` for our server and `_headers` for Netlify/Cloudflare Pages-style CDNs.
 */

export const FileHeadersSchema = z.object({
  etag: z.string().regex(/^"[^"]+"$/, { error: "expected a strong ETag in double quotes" }),
  content_type: z.string().min(1),
  cache_control: z.string().min(1),
  last_modified: z.string().optional(),
  link: z.string().optional(),
});
export type FileHeaders = z.infer<typeof FileHeadersSchema>;

/** `_headers.json`: what the server trusts about a build, so it is validated, never cast. */
export const HeadersManifestSchema = z.object({
  version: z.literal(1),
  /** Keyed by URL path of the file, e.g. `/reviews.json`, `/index.html`. */
  files: z.record(z.string().startsWith("/"), FileHeadersSchema),
});
export type HeadersManifest = z.infer<typeof HeadersManifestSchema>;

export const MANIFEST_FILE = "_headers.json";

const TYPES: Record<string, string> = {
  ".json": "application/json",
  ".xml": "application/atom+xml; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".webmanifest": "application/manifest+json",
};

/** The review log's text files (tlog-tiles: the checkpoint is `text/plain; charset=utf-8`). */
const LOG_TEXT = new Set(["/log/checkpoint", "/log/key"]);
/** The sitemap files (src/site/sitemap.ts) are plain XML; the other `.xml` file is the Atom feed. */
const SITEMAP_FILE = /(^|\/)sitemap(-\d+)?\.xml$/;

export function contentTypeFor(file: string): string {
  if (LOG_TEXT.has(file)) return "text/plain; charset=utf-8";
  if (SITEMAP_FILE.test(file)) return "application/xml; charset=utf-8";
  const ext = /\.[a-z0-9]+$/i.exec(file)?.[0]?.toLowerCase() ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}

/** Strong validator: 128 bits of SHA-256 of the exact bytes served. */
export function strongEtag(bytes: Uint8Array | string): string {
  return etagOfHash(createHash("sha256").update(bytes));
}

/** The strong validator of a SHA-256 fed with the bytes (in pieces, for a file read as a stream). */
export function etagOfHash(sha256: Hash): string {
  return `"${sha256.digest("base64url").slice(0, 22)}"`;
}

export function topicLink(urls: SiteUrls, path: string): string {
  return `<${urls.hub}>; rel="hub", <${urls.base}${path}>; rel="self"`;
}

/** Full log tiles never change (c2sp.org/tlog-tiles asks for long-lived caching of tiles). */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** The log's checkpoint moves with every build: tlog-tiles asks for no caching beyond a few seconds. */
export const CHECKPOINT_CACHE = "public, max-age=5";
/**
 * A partial tile's bytes never change either, but the log may delete it once the full tile
 * exists, so caches keep it for a day rather than a year.
 */
export const PARTIAL_TILE_CACHE = "public, max-age=86400";

/** Hashed build assets and full log tiles never change under a name; everything else revalidates every 5 minutes. */
export function cacheControlFor(path: string): string {
  if (path === "/log/checkpoint") return CHECKPOINT_CACHE;
  if (path.startsWith("/log/tile/")) return path.includes(".p/") ? PARTIAL_TILE_CACHE : IMMUTABLE;
  return path.startsWith("/_astro/") ? IMMUTABLE : "public, max-age=300, stale-while-revalidate=60";
}

/** When and after what a build's headers are computed: its time and the previous build's manifest. */
export interface ManifestOptions {
  urls: SiteUrls;
  /** The build's time: Last-Modified of every file whose bytes changed. Without it, no Last-Modified. */
  builtAt?: Date;
  /** The previous build's manifest, whose Last-Modified values carry over for unchanged files. */
  previous?: HeadersManifest;
}

export function buildManifest(
  files: readonly { path: string; bytes: Uint8Array }[],
  opts: ManifestOptions,
): HeadersManifest {
  return manifestOf(
    files.map((f) => ({ path: f.path, etag: strongEtag(f.bytes) })),
    opts,
  );
}

/** `buildManifest` from each file's strong ETag, for a build hashed file by file (src/io/dist-files.ts). */
export function manifestOf(files: readonly { path: string; etag: string }[], opts: ManifestOptions): HeadersManifest {
  const out: Record<string, FileHeaders> = {};
  for (const { path, etag } of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (path === `/${MANIFEST_FILE}` || path === "/_headers") continue;
    const h: FileHeaders = {
      etag,
      content_type: contentTypeFor(path),
      cache_control: cacheControlFor(path),
    };
    if (opts.builtAt) h.last_modified = lastModifiedOf(etag, opts.builtAt, opts.previous?.files[path]);
    if ((TOPIC_PATHS as readonly string[]).includes(path)) h.link = topicLink(opts.urls, path);
    out[path] = h;
  }
  return { version: 1, files: out };
}

/**
 * `_headers.json`'s text, `JSON.stringify(manifest, null, 2)` and a newline, in pieces of about
 * `size` characters (`writeFile` takes them one by one). At 100,000 reviews the text is about 30 MB,
 * and made whole it was held twice at the build's end (the string and its UTF-8 copy).
 */
export function* manifestJson(manifest: HeadersManifest, size = 65_536): Generator<string> {
  const paths = Object.keys(manifest.files);
  if (paths.length === 0) {
    yield `${JSON.stringify(manifest, null, 2)}\n`;
    return;
  }
  let piece = `{\n  "version": ${JSON.stringify(manifest.version)},\n  "files": {\n`;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i] as string;
    // A value's lines moved in by its depth; JSON text has no newline inside a string.
    const value = JSON.stringify(manifest.files[path], null, 2).replaceAll("\n", "\n    ");
    piece += `    ${JSON.stringify(path)}: ${value}${i < paths.length - 1 ? "," : ""}\n`;
    if (piece.length >= size) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}  }\n}\n`;
}

/**
 * Paths served under one `_headers` splat rule instead of one rule per file: Cloudflare Pages
 * accepts at most 100 rules, and four years of month pages alone would be 48 (and there is a page per
 * review, per insights figure and per withdrawn review). Those pages get the shared headers there
 * (no per-file ETag; the host computes its own).
 */
export const SPLAT_RULES = ["/reviews/*", "/insights/*", "/withdrawn/*", "/_astro/*"] as const;

/**
 * The log's tiles, by placeholder rules (`:name` matches one path segment on Cloudflare Pages):
 * full tiles and bundles are `tile/<L>/<NNN>`, partial ones `tile/<L>/<NNN>.p/<W>`, so each rule
 * has one Cache-Control, its own rather than its first file's. Tiles carry their Content-Type
 * there, as they have no extension. From tile 1,000 of a level on (256,000 entries) a full tile's
 * path has a third segment and gets the partial tiles' one-day lifetime, which is shorter than
 * needed, never wrong; a partial tile's has a fourth, and a rule of its own.
 */
export const LOG_TILE_RULES = [
  { rule: "/log/tile/:level/:index", pattern: /^\/log\/tile\/[^/]+\/[^/]+$/, cache: IMMUTABLE },
  { rule: "/log/tile/:level/:index/:width", pattern: /^\/log\/tile\/[^/]+\/[^/]+\/[^/]+$/, cache: PARTIAL_TILE_CACHE },
] as const;

export function splatFor(path: string): string | undefined {
  return (
    SPLAT_RULES.find((rule) => path.startsWith(rule.slice(0, -1))) ??
    LOG_TILE_RULES.find((r) => r.pattern.test(path))?.rule
  );
}

/** A shared rule whose files all have one Content-Type, which it then states. */
export function splatIsTyped(rule: string): boolean {
  return LOG_TILE_RULES.some((r) => r.rule === rule);
}

/**
 * Netlify / Cloudflare Pages `_headers`: one `/*` rule with the security headers (hosts merge every
 * rule that matches, so each header is written once to avoid joined duplicates), then exact rules
 * for datasets and feeds and splats for pages and assets.
 */
export function renderHeadersFile(manifest: HeadersManifest): string {
  const security = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  const blocks: string[] = [`/*\n${security.join("\n")}`];
  const splats = new Map<string, FileHeaders>();
  // A splat covers files of several types, so the host picks Content-Type from the extension there.
  const lines = (h: FileHeaders, exact: boolean, typed = exact) => {
    const out = exact ? [`  ETag: ${h.etag}`] : [];
    if (typed) out.push(`  Content-Type: ${h.content_type}`);
    out.push(`  Cache-Control: ${h.cache_control}`, "  Access-Control-Allow-Origin: *");
    // Each file has its own Last-Modified: a shared rule states none, as it states no ETag.
    if (exact && h.last_modified) out.push(`  Last-Modified: ${h.last_modified}`);
    if (h.link) out.push(`  Link: ${h.link}`);
    return out.join("\n");
  };
  for (const [path, h] of Object.entries(manifest.files)) {
    const splat = splatFor(path);
    if (splat) {
      // Pages under one splat share caching; the first one speaks for all, but a tile rule keeps its lifetime.
      const tiles = LOG_TILE_RULES.find((r) => r.rule === splat);
      if (!splats.has(splat)) splats.set(splat, tiles ? { ...h, cache_control: tiles.cache } : h);
      continue;
    }
    const urls = path.endsWith("/index.html") ? [path.slice(0, -"index.html".length), path] : [path];
    for (const u of urls) blocks.push(`${u}\n${lines(h, true)}`);
  }
  for (const [rule, h] of splats) blocks.push(`${rule}\n${lines(h, false, splatIsTyped(rule))}`);
  return `${blocks.join("\n\n")}\n`;
}
