import { describe, expect, it } from "vitest";
import type { ServedRecord } from "../../src/log/site-check.ts";
import { CARLOS, MIKE, withdrawnSite } from "../helpers/withdrawn-site.ts";

/** log:verify --pages on real builds of the fixture with one review published, then withdrawn (test/helpers/withdrawn-site.ts). */
describe("npm run log:verify (pages)", { timeout: 600_000 }, () => {
  const served = withdrawnSite();
  const { run, verify } = served;

  it("passes the site as built", async () => {
    const r = await verify();
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("1 withdrawn review not served, nor its page");
  });

  it("passes the site named by an equal address written otherwise (a host's case, its default port)", async () => {
    const shout = served.base.replace("localhost", "LocalHost");
    const r = await run(["--url", `${shout}/log`, "--key", served.vkey, "--pages"]);
    expect(r.code, r.err).toBe(0);
  });

  it("reads each review's permalink, not the url its record names, and fails a record whose url is another", async () => {
    const genuine = `/reviews/${CARLOS}/?faithful`;
    served.site.rewrite = (url, body) => {
      if (url === "/reviews.json") {
        const d = JSON.parse(body) as { reviews: { id: string; url: string }[] };
        for (const r of d.reviews) if (r.id === CARLOS) r.url = `${served.base}${genuine}`;
        return JSON.stringify(d);
      }
      if (url === `/reviews/${CARLOS}/`)
        return body.replace(/(<div class="review__body"[^>]*><p[^>]*>)Sprained/, "$1Broke");
      return undefined;
    };
    expect(await (await fetch(`${served.base}/reviews.json`)).text()).toContain(`${served.base}${genuine}`);
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n").sort()).toEqual([
      `log:verify: ${CARLOS} is served with url "${served.base}${genuine}", not its permalink ${served.base}/reviews/${CARLOS}/`,
      `log:verify: ${CARLOS}: ${served.base}/reviews/${CARLOS}/ shows other text than the record the log vouches for (rewritten after the build?)`,
    ]);
  });

  it("fails a /reviews.json whose record holds a member twice: readers differ on which one they keep", async () => {
    // A first-wins reader sees 1 star; JSON.parse keeps the last, the logged rating.
    served.site.rewrite = (url, body) =>
      url === "/reviews.json" ? body.replace(/"id": "2025-03-10-carlos-d",/, `$&"rating":1,`) : undefined;
    expect(await (await fetch(`${served.base}/reviews.json`)).text()).toContain(`"id": "${CARLOS}","rating":1,`);
    const r = await verify();
    expect(r.code).toBe(1);
    // Named by its JSON path: the record's place in the list, then the member.
    expect(r.err).toMatch(
      /^log:verify: \S+\/reviews\.json is not I-JSON: \$\.reviews\[\d+\]\.rating is a member name given twice in one object, and readers differ on which they keep \(RFC 7493 section 2\.3\)/,
    );
  });

  it("fails a JSON Feed item whose words or id are not its record's, or that carries a withdrawn review", async () => {
    const feed = JSON.parse(await (await fetch(`${served.base}/api/feed.json`)).text()) as {
      items: Record<string, unknown>[];
    };
    const carlos = feed.items.find((i) => i.url === `${served.base}/reviews/${CARLOS}/`) as Record<string, unknown>;
    const idOf = (i: Record<string, unknown> | undefined) => String(i?.url).split("/").at(-2);
    expect(idOf(feed.items[1])).not.toBe(CARLOS);
    served.site.rewrite = (url) => {
      if (url !== "/api/feed.json") return undefined;
      const items = feed.items.map((i) =>
        i === carlos ? { ...i, content_text: String(i.content_text).replace("Sprained", "Broke") } : i,
      );
      // An amendment hidden: the item dated as if unchanged since its publication.
      items[1] = { ...items[1], date_modified: "2020-01-01T00:00:00Z" };
      // Words a reader shows before content_text, beside an item otherwise its record's.
      items[2] = { ...items[2], content_html: "<p>Worst visit ever.</p>", summary: "Avoid." };
      // Another review's id: a reader takes the item for an update of that one.
      items[3] = { ...items[3], id: items[4]?.id };
      // The withdrawn review back in the feed, under its own permalink.
      items.push({ ...carlos, url: `${served.base}/reviews/${MIKE}/` });
      return JSON.stringify({ ...feed, items });
    };
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toEqual([
      `log:verify: ${CARLOS}: ${served.base}/api/feed.json gives another content_text than the record the log vouches for (rewritten after the build?)`,
      `log:verify: ${idOf(feed.items[1])}: ${served.base}/api/feed.json gives another date_modified than the record the log vouches for (rewritten after the build?)`,
      `log:verify: ${idOf(feed.items[2])}: ${served.base}/api/feed.json gives "content_html", "summary" in its item, which the record the log vouches for does not give`,
      `log:verify: ${idOf(feed.items[3])}: ${served.base}/api/feed.json gives another id than the record the log vouches for (rewritten after the build?)`,
      `log:verify: ${served.base}/api/feed.json carries an item for "${served.base}/reviews/${MIKE}/", a review /reviews.json does not serve (withdrawn, or never logged?)`,
    ]);
  });

  it("fails an Atom entry whose words are not its record's, or that carries a withdrawn review", async () => {
    const atom = await (await fetch(`${served.base}/feed.xml`)).text();
    const entries = [...atom.matchAll(/<entry>[\s\S]*?<\/entry>/g)].map((m) => m[0]);
    const carlos = entries.find((e) => e.includes(`${served.base}/reviews/${CARLOS}/`)) as string;
    const other = entries.find((e) => e !== carlos) as string;
    const otherId = /\/reviews\/([^/]+)\//.exec(other)?.[1];
    served.site.rewrite = (url) => {
      if (url !== "/feed.xml") return undefined;
      // The withdrawn review back in the feed, under its own permalink.
      const mike = carlos.replace(`${served.base}/reviews/${CARLOS}/`, `${served.base}/reviews/${MIKE}/`);
      return atom
        .replace(carlos, carlos.replace("Sprained", "Broke"))
        .replace(other, other.replace("</entry>", "<summary>Avoid this practice.</summary></entry>"))
        .replace("</feed>", `${mike}</feed>`);
    };
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n").sort()).toEqual(
      [
        `log:verify: ${CARLOS}: ${served.base}/feed.xml gives another content than the record the log vouches for (rewritten after the build?)`,
        `log:verify: ${otherId}: ${served.base}/feed.xml gives another summary than the record the log vouches for (rewritten after the build?)`,
        `log:verify: ${served.base}/feed.xml carries an entry for "${served.base}/reviews/${MIKE}/", a review /reviews.json does not serve (withdrawn, or never logged?)`,
      ].sort(),
    );
  });

  it("fails a home page whose counts of reviews published and withdrawn are not the log's", async () => {
    const logged = "8 reviews have been published here; 1 withdrawn (1 at the author's request).";
    expect(await (await fetch(`${served.base}/`)).text()).toContain(logged.replace("'", "&#39;"));
    const hidden = "8 reviews have been published here; none has been withdrawn.";
    served.site.rewrite = (url, body) => (url === "/" ? body.replace(logged.replace("'", "&#39;"), hidden) : undefined);
    const r = await verify();
    expect(r.code).toBe(1);
    const tail =
      "Reviews are never deleted or chosen by rating: every publication, correction and withdrawal is in a public, verifiable log.";
    expect(r.err).toBe(
      `log:verify: ${served.base}/ says ${JSON.stringify(`${hidden} ${tail}`)}, where the log says ${JSON.stringify(logged)} (rewritten after the build?)`,
    );
    served.site.rewrite = (url, body) =>
      url === "/" ? body.replace(/class="log-summary/, 'class="summary') : undefined;
    expect((await verify()).err).toBe(
      `log:verify: ${served.base}/ does not show the log's counts (${JSON.stringify(logged)})`,
    );
  });

  it("fails a /log/ page whose counts or list of withdrawals are not the log's", async () => {
    const counts = "The log has 9 entries: 8 published, 0 amended, 1 withdrawn and 0 restored.";
    const reviews = "8 different reviews have been published here; 1 is withdrawn now.";
    const page = await (await fetch(`${served.base}/log/`)).text();
    expect(page).toContain(counts);
    expect(page).toContain("author-request</code>");
    served.site.rewrite = (url, body) =>
      url === "/log/"
        ? body
            .replace(/<tbody\b[^>]*>[\s\S]*?<\/tbody>/, "<tbody></tbody>")
            .replace(counts, counts.replace("1 withdrawn", "0 withdrawn"))
        : undefined;
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toEqual([
      `log:verify: ${served.base}/log/ says ${JSON.stringify(`${counts.replace("1 withdrawn", "0 withdrawn")} ${reviews}`)} in its counts, where the log says ${JSON.stringify(`${counts} ${reviews}`)} (rewritten after the build?)`,
      `log:verify: ${served.base}/log/ lists 0 withdrawals, where the log holds 1 (not listed: entry 8, 2026-11-20, author-request): its list is not the log's (rewritten after the build?)`,
    ]);
  });

  it("fails an /insights.json that quotes words a review does not hold, or cites a withdrawn review", async () => {
    const insights = JSON.parse(await (await fetch(`${served.base}/insights.json`)).text()) as Record<string, unknown>;
    const dataset = JSON.parse(await (await fetch(`${served.base}/reviews.json`)).text()) as {
      reviews: ServedRecord[];
    };
    const text = String(dataset.reviews.find((r) => r.id === CARLOS)?.text);
    const quote = (id: string, sentence?: string) => ({
      review_id: id,
      url: `${served.base}/reviews/${id}/`,
      sentence,
    });
    // A genuine quote passes; one of words the review never said, and a withdrawn review quoted, fail.
    const examples = { positive: [quote(CARLOS, text.split(". ")[0]), quote(CARLOS, "Best chiropractor in Oregon.")] };
    const aspects = [{ id: "care", examples: { ...examples, negative: [quote(MIKE, "It hurt.")] } }];
    served.site.rewrite = (url) => (url === "/insights.json" ? JSON.stringify({ ...insights, aspects }) : undefined);
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toEqual([
      `log:verify: ${CARLOS}: ${served.base}/insights.json quotes "Best chiropractor in Oregon.", which its record the log vouches for does not say`,
      `log:verify: ${served.base}/insights.json cites ${MIKE}, a review /reviews.json does not serve (withdrawn, or never logged?)`,
    ]);
  });

  it("fails an aggregate_rating that is not the one of the records served beside it", async () => {
    served.site.rewrite = (url, body) => {
      if (url !== "/reviews.json") return undefined;
      const d = JSON.parse(body) as { aggregate_rating: { rating_value: number; review_count: number } };
      d.aggregate_rating.rating_value = 4.9;
      return JSON.stringify(d);
    };
    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^log:verify: \S+\/reviews\.json serves an aggregate_rating of 4\.9 from \d+ reviews, but the \d+ records it serves give [\d.]+ from \d+ \(and a rating distribution of/,
    );
  });

  it("fails a withdrawn review's page that redirects, or answers anything but 404 or 410", async () => {
    const page = `${served.base}/reviews/${MIKE}/`;
    served.site.answer = (url) =>
      url === `/reviews/${MIKE}/` ? { status: 302, headers: { location: `/reviews/${CARLOS}/` } } : undefined;
    const redirect = await verify();
    expect(redirect.code).toBe(1);
    expect(redirect.err).toBe(
      `log:verify: ${MIKE} was withdrawn (log entry 8), but ${page} answers 302, a redirect to /reviews/${CARLOS}/, not 404 or 410: a redirect may lead to the withdrawn text`,
    );
    served.site.answer = (url) => (url === `/reviews/${MIKE}/` ? { status: 403, body: "no" } : undefined);
    expect((await verify()).err).toBe(
      `log:verify: ${MIKE} was withdrawn (log entry 8), but ${page} answers 403, not 404 or 410`,
    );
    served.site.answer = (url) => (url === `/reviews/${MIKE}/` ? { status: 404, body: "gone" } : undefined);
    expect((await verify()).code).toBe(0);
  });

  it("waits out a rate limit (429 with Retry-After) on any file, a withdrawn review's page among them, and passes", async () => {
    const limited = new Set<string>();
    // Each path answers 429 the first time, as the service's own limiter does past 600 a minute.
    served.site.answer = (url) => {
      if (limited.has(url)) return undefined;
      limited.add(url);
      return { status: 429, body: "slow down", headers: { "retry-after": "0" } };
    };
    const r = await verify();
    expect(r.code, r.err).toBe(0);
    expect(limited).toContain(`/reviews/${MIKE}/`);
    expect(limited).toContain("/log/checkpoint");
  });
});
