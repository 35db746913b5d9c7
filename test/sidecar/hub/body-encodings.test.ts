import { describe, expect, it } from "vitest";
import { answerOf, fileHarness, TOPICS, VALID_SUBSCRIPTION } from "../../helpers/hub-harness.ts";

/** How the hub reads a form body's Content-Encoding and charset, and refuses the ones it cannot read. */

const hub = fileHarness();

const valid = VALID_SUBSCRIPTION;

describe("a form body's coding and charset", () => {
  it("415 for a content coding it cannot decode, naming the codings it can in Accept-Encoding (RFC 9110 §12.5.3)", async () => {
    const res = await hub.h.post({}, "application/x-www-form-urlencoded", "hub.mode=publish", {
      "content-encoding": "compress",
    });
    expect([res.status, await res.text()]).toEqual([415, 'unsupported content encoding "compress"\n']);
    expect(res.headers.get("accept-encoding")).toMatch(/^gzip, deflate, br(, zstd)?$/);
  });

  it("reads a form sent with Content-Encoding x-gzip as gzip (RFC 9110 §8.4.1.3)", async () => {
    const { gzipSync } = await import("node:zlib");
    const ping = gzipSync(new URLSearchParams({ "hub.mode": "publish", "hub.url": TOPICS.atom }).toString());
    for (const coding of ["gzip", "x-gzip", "X-GZIP"]) {
      const res = await fetch(hub.h.endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-encoding": coding },
        body: ping,
      });
      expect(res.status, coding).toBe(202);
    }
  });

  it("415 for a form in another charset than UTF-8, which would read %FF%FE in a secret as ÿþ", async () => {
    // A verification an earlier request left pending may still be there under load.
    const before = (await hub.h.pending()).length;
    const type = "application/x-www-form-urlencoded; charset=iso-8859-1";
    const body = new URLSearchParams({ ...valid, "hub.secret": "x" })
      .toString()
      .replace("hub.secret=x", "hub.secret=%FF%FE");
    const res = await answerOf(await hub.h.post({}, type, body));
    expect(res.status).toBe(415);
    expect(res.text).toBe(
      "The hub reads application/x-www-form-urlencoded bodies as UTF-8 only, got charset iso-8859-1.\n",
    );
    const pending = await hub.h.pending();
    expect(pending.length).toBeLessThanOrEqual(before);
    expect(pending.map((v) => v.secret)).not.toContain("ÿþ");
    const utf8 = await hub.h.post(
      {},
      "application/x-www-form-urlencoded; charset=UTF-8",
      new URLSearchParams(valid).toString(),
    );
    expect(utf8.status).toBe(202);
  });

  it('reads a form whose charset is any WHATWG Encoding label of UTF-8 (utf8, "UTF-8", unicode-1-1-utf-8)', async () => {
    const body = new URLSearchParams({ "hub.mode": "publish", "hub.url": TOPICS.atom }).toString();
    for (const charset of ["utf8", "UTF8", '"utf-8"', "unicode-1-1-utf-8", "unicode11utf8", "x-unicode20utf8"]) {
      const res = await hub.h.post({}, `application/x-www-form-urlencoded; charset=${charset}`, body);
      expect([res.status, await res.text()], charset).toEqual([202, "Accepted: changed topics will be distributed.\n"]);
    }
  });

  it("415 for any other charset in the hub's own words, as for ISO-8859-1, in text and JSON", async () => {
    const body = new URLSearchParams(valid).toString();
    for (const charset of ["windows-1252", "utf-16"]) {
      const type = `application/x-www-form-urlencoded; charset=${charset}`;
      const message = `The hub reads application/x-www-form-urlencoded bodies as UTF-8 only, got charset ${charset}.`;
      const res = await answerOf(await hub.h.post({}, type, body));
      expect([res.status, res.text]).toEqual([415, `${message}\n`]);
      const json = await hub.h.post({}, type, body, { accept: "application/json" });
      expect([json.status, await json.json()]).toEqual([415, { error: "unsupported_media_type", message }]);
    }
  });

  it("quotes a long Content-Type, charset or Content-Encoding cut, as an echoed value is, not whole", async () => {
    const long = "z".repeat(10_000);
    const cut = `${"z".repeat(200)}… (10000 characters)`;
    const body = new URLSearchParams(valid).toString();
    const type = await hub.h.post({}, `text/${long}`, body);
    expect([type.status, await type.text()]).toEqual([
      415,
      `The hub accepts application/x-www-form-urlencoded bodies only, got ${`text/${long}`.slice(0, 200)}… (10005 characters).\n`,
    ]);
    const charset = await hub.h.post({}, `application/x-www-form-urlencoded; charset=${long}`, body);
    expect([charset.status, await charset.text()]).toEqual([
      415,
      `The hub reads application/x-www-form-urlencoded bodies as UTF-8 only, got charset ${cut}.\n`,
    ]);
    const coding = await hub.h.post({}, undefined, body, { "content-encoding": long });
    expect([coding.status, await coding.text()]).toEqual([
      415,
      `unsupported content encoding ${JSON.stringify(cut)}\n`,
    ]);
    const json = await hub.h.post({}, `text/${long}`, body, { accept: "application/json" });
    expect(JSON.stringify(await json.json()).length).toBeLessThan(500);
  });
});
