import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { htmlText } from "../../src/feeds/atom.ts";

/**
 * `npm start`'s notice of a save that did not build, put on top of every HTML page it serves so an
 * editor sees it where they look (the browser), not only in a terminal: which files, and what to
 * fix in each. It is added as pages are served, never written into a build, so a build deployed
 * to a CDN cannot contain it. The pages' CSP allows no inline style or script, so the notice is
 * plain markup styled by a stylesheet served from this origin.
 */

export interface PageNotice {
  /** Changes with the text: part of the ETag of a page that carries it. */
  id: string;
  /** The markup inserted after `<body …>`. */
  html: string;
}

export const NOTICE_CSS_PATH = "/_npm-start/build-notice.css";

/** The notice for a failed build's problems (`file: line N: …`, as `npm run check` prints them). */
export function pageNotice(problems: readonly string[]): PageNotice {
  const items = problems.map((p) => `<li>${htmlText(p)}</li>`).join("");
  const html =
    `<link rel="stylesheet" href="${NOTICE_CSS_PATH}">` +
    `<aside class="npm-start-build-failed" role="alert"><p><strong>Your last save was not published.</strong> ` +
    `This page shows the last version that built. Fix ${problems.length === 1 ? "this" : "these"} and save again:</p>` +
    `<ul>${items}</ul></aside>`;
  return { id: createHash("sha256").update(html).digest("base64url").slice(0, 12), html };
}

/** `body` with the notice right after its `<body …>` tag (at the start when there is none). */
export function withNotice(body: Buffer, notice: PageNotice): Buffer {
  const text = body.toString("utf8");
  const open = /<body\b[^>]*>/i.exec(text);
  const at = open ? open.index + open[0].length : 0;
  return Buffer.from(`${text.slice(0, at)}${notice.html}${text.slice(at)}`);
}

/** The ETag of a page carrying `notice`: another representation than the page alone. */
export function noticeEtag(etag: string, notice: PageNotice): string {
  return etag.replace(/"$/, `-n${notice.id}"`);
}

const CSS = `.npm-start-build-failed{background:#fff4e5;color:#3d2400;border-bottom:3px solid #d9480f;padding:1rem 1.5rem;font:1rem/1.5 system-ui,sans-serif}
.npm-start-build-failed ul{margin:.5rem 0 0;padding-left:1.25rem;font-family:ui-monospace,monospace;font-size:.9rem;overflow-wrap:anywhere}
`;

export const noticeCss: RequestHandler = (_req, res) => {
  res.setHeader("Content-Type", "text/css; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.send(CSS);
};
