import { describe, expect, it } from "vitest";
import { evidenceListHtml, saidHtml } from "../../../src/site/evidence-html.ts";

/** The counted sentence on an evidence list: the review's own words, the clause read marked, all escaped. */
describe("the counted sentence of an evidence item", () => {
  it("marks the clause that was read and escapes every part", () => {
    const sentence = `Dr. <b>Kim</b> is "kind", but the billing & front desk were a mess.`;
    const at = sentence.indexOf("but");
    expect(saidHtml({ sentence, span: [at, sentence.length] })).toBe(
      '<q class="evidence-item__said">Dr. &lt;b&gt;Kim&lt;/b&gt; is &quot;kind&quot;, ' +
        "<mark>but the billing &amp; front desk were a mess.</mark></q>",
    );
  });

  it("cuts a long sentence at word boundaries around the clause, keeping the whole clause it can", () => {
    const sentence = `${"word ".repeat(100)}the wait was awful ${"more ".repeat(40)}end.`;
    const at = sentence.indexOf("the wait");
    const html = saidHtml({ sentence, span: [at, at + "the wait was awful".length] });
    expect(html).toContain("<mark>the wait was awful</mark>");
    expect(html.startsWith('<q class="evidence-item__said">…word ')).toBe(true);
    expect(html.endsWith("end.</q>")).toBe(true);
    const shown = html.replace(/<[^>]+>/g, "").replace(/…/g, "");
    expect(shown.length).toBeLessThanOrEqual(300);
    expect(sentence).toContain(shown);
  });

  it("shows the sentence under the review's link and reading on an aspect list", () => {
    const html = evidenceListHtml(
      [
        {
          id: "2025-01-01-a-b",
          title: "Fine",
          rating: 2,
          author: "A. B.",
          date: "2025-01-01",
          reading: { id: "billing", sentiment: "negative", score: -0.7, source: "machine" },
          said: { sentence: "Billing was a mess.", span: [0, 19] },
        },
      ],
      "",
      "Billing",
    );
    expect(html).toMatch(
      /^<li class="evidence-item"><a href="\/reviews\/2025-01-01-a-b\/">Fine<\/a><span class="evidence-item__meta">.*Billing: negative<\/span><q class="evidence-item__said"><mark>Billing was a mess\.<\/mark><\/q><\/li>$/,
    );
  });
});
