import { describe, expect, it } from "vitest";
import { CARLOS, MIKE, withdrawnSite } from "../helpers/withdrawn-site.ts";

/**
 * log:verify against pages and files changed so that a reader is shown other words than the log
 * vouches for while a naive parse still finds the honest copy: a namespace prefix, a comment, a
 * member given twice, a nested element's end.
 */
describe("npm run log:verify (disguised changes)", { timeout: 600_000 }, () => {
  const served = withdrawnSite();
  const { verify } = served;

  it("fails an Atom entry written with a namespace prefix, or one whose elements go on past a comment", async () => {
    const atom = await (await fetch(`${served.base}/feed.xml`)).text();
    const carlos = [...atom.matchAll(/<entry>[\s\S]*?<\/entry>/g)]
      .map((m) => m[0])
      .find((e) => e.includes(`${served.base}/reviews/${CARLOS}/`)) as string;
    // A feed reader shows both: the prefix names the Atom namespace, and a comment is no end of an entry.
    const prefixed = `<a:entry xmlns:a="http://www.w3.org/2005/Atom"><a:title>Waited fifty minutes</a:title><a:link href="${served.base}/reviews/${MIKE}/"/><a:content type="text">I waited fifty minutes past my appointment.</a:content></a:entry>`;
    served.site.rewrite = (url) =>
      url === "/feed.xml"
        ? atom
            .replace(
              carlos,
              carlos.replace("</entry>", "<!--</entry>--><summary>Avoid this practice.</summary></entry>"),
            )
            .replace("</feed>", `${prefixed}</feed>`)
        : undefined;
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n").sort()).toEqual(
      [
        `log:verify: ${CARLOS}: ${served.base}/feed.xml gives another summary than the record the log vouches for (rewritten after the build?)`,
        `log:verify: ${served.base}/feed.xml carries an entry for "${served.base}/reviews/${MIKE}/", a review /reviews.json does not serve (withdrawn, or never logged?)`,
      ].sort(),
    );
  });

  it("fails a JSON Feed or /insights.json that holds a member twice, whichever copy JSON.parse keeps", async () => {
    // JSON.parse keeps the last, the build's text; a first-wins feed reader shows the words before it.
    served.site.rewrite = (url, body) => {
      if (url === "/api/feed.json")
        return body.replace('"content_text":', '"content_text": "Avoid this practice.", $&');
      if (url === "/insights.json") return body.replace(/^\{/, '{"summary": "Avoid this practice.", ');
      return undefined;
    };
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toEqual([
      `log:verify: ${served.base}/api/feed.json is not I-JSON: $.items[0].content_text is a member name given twice in one object, and readers differ on which they keep (RFC 7493 section 2.3)`,
      `log:verify: ${served.base}/insights.json is not I-JSON: $.summary is a member name given twice in one object, and readers differ on which they keep (RFC 7493 section 2.3)`,
    ]);
  });

  it("--pages fails a page whose review text or reply goes on past a nested element's end or a comment holding </div>", async () => {
    const LAUREN = "2025-03-10-lauren-m";
    const GREG = "2024-05-17-greg-h";
    const added = "<p>Avoid this practice.</p>";
    // Both paragraphs are in the review's text box to a browser: an empty div nests, a comment ends nothing.
    const extend = (body: string, inserted: string) => {
      const at = body.indexOf("</div>", body.indexOf('<div class="review__body"'));
      return `${body.slice(0, at)}${inserted}${body.slice(at)}`;
    };
    served.site.rewrite = (url, body) => {
      if (url === `/reviews/${CARLOS}/`) return extend(body, `<div></div>${added}`);
      if (url === `/reviews/${LAUREN}/`) return extend(body, `<!-- </div> -->${added}`);
      if (url === `/reviews/${GREG}/`) {
        const end = body.indexOf("</section>", body.indexOf('<section class="reply"'));
        return `${body.slice(0, end)}<section></section>${added}${body.slice(end)}`;
      }
      return undefined;
    };
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n").sort()).toEqual([
      `log:verify: ${GREG}: ${served.base}/reviews/${GREG}/ shows another reply than the record the log vouches for (rewritten after the build?)`,
      ...[CARLOS, LAUREN].map(
        (id) =>
          `log:verify: ${id}: ${served.base}/reviews/${id}/ shows other text than the record the log vouches for (rewritten after the build?)`,
      ),
    ]);
  });

  it("fails a home page, /log/ page or review page that shows what the log says only inside a comment", async () => {
    // A browser shows nothing of a comment: the counts and the list are hidden from every visitor.
    const hide = (body: string, start: RegExp, end: string) => {
      const at = body.search(start);
      const to = body.indexOf(end, at) + end.length;
      return `${body.slice(0, at)}<!--${body.slice(at, to)}-->${body.slice(to)}`;
    };
    served.site.rewrite = (url, body) => {
      if (url === "/") return hide(body, /<p class="log-summary/, "</p>");
      if (url === "/log/") return hide(body, /<section class="section" id="withdrawals"/, "</section>");
      // The honest header in a comment, a visitor shown another title by the header after it.
      if (url === `/reviews/${CARLOS}/`) {
        const header = /<header class="review__header"[\s\S]*?<\/header>/.exec(body)?.[0] ?? "";
        return body.replace(header, `<!--${header}-->${header.replace("Back on the trail", "Never again")}`);
      }
      return undefined;
    };
    const r = await verify();
    expect(r.code).toBe(1);
    const logged = "8 reviews have been published here; 1 withdrawn (1 at the author's request).";
    expect(r.err.split("\n")).toEqual([
      `log:verify: ${served.base}/ does not show the log's counts (${JSON.stringify(logged)})`,
      `log:verify: ${served.base}/log/ lists 0 withdrawals, where the log holds 1 (not listed: entry 8, 2026-11-20, author-request): its list is not the log's (rewritten after the build?)`,
      `log:verify: ${CARLOS}: ${served.base}/reviews/${CARLOS}/ shows another title than the record the log vouches for (rewritten after the build?)`,
    ]);
  });
});
