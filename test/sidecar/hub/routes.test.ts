import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { HubRequestSchema } from "../../../src/api/hub-request.ts";
import { heldResponder, startSubscriber } from "../../helpers/https-subscriber.ts";
import { answerOf, fileHarness, startHarness, TOPICS, VALID_SUBSCRIPTION } from "../../helpers/hub-harness.ts";

const hub = fileHarness();

const valid = VALID_SUBSCRIPTION;

describe("request validation", () => {
  it.each([
    [{ ...valid, "hub.mode": "" }, "hub.mode: must be subscribe, unsubscribe or publish, got nothing"],
    [{ ...valid, "hub.mode": "watch" }, 'hub.mode: must be subscribe, unsubscribe or publish, got "watch"'],
    [{ ...valid, "hub.callback": "" }, "hub.callback: is required, got nothing"],
    [{ ...valid, "hub.callback": "/relative" }, 'hub.callback: must be an absolute https URL, got "/relative"'],
    [
      { ...valid, "hub.callback": "https://a.test/cb#x" },
      'hub.callback: must not contain a fragment, got "https://a.test/cb#x"',
    ],
    [
      { ...valid, "hub.callback": "https://a.test/cb?q=a b" },
      'hub.callback: must be a URI: percent-encode what RFC 3986 does not allow (a space, a non-ASCII letter, a lone %), got "https://a.test/cb?q=a b"',
    ],
    [
      { ...valid, "hub.callback": "https:a.test/cb" },
      'hub.callback: must be an absolute https URL, got "https:a.test/cb"',
    ],
    [
      { ...valid, "hub.callback": "https://u:p@a.test/cb" },
      'hub.callback: must not contain user info, got "https://u:p@a.test/cb"',
    ],
    [
      { ...valid, "hub.callback": `https://a.test/${"x".repeat(2040)}` },
      "hub.callback: must be at most 2048 characters",
    ],
    [{ ...valid, "hub.topic": "" }, "hub.topic: is required, got nothing"],
    [
      { ...valid, "hub.topic": "https://reviews.example.test/other.xml" },
      `hub.topic: must be one of ${TOPICS.atom}, ${TOPICS.json}, ${TOPICS.reviews}, got "https://reviews.example.test/other.xml"`,
    ],
    [{ ...valid, "hub.lease_seconds": "1.5" }, 'hub.lease_seconds: must be a whole number of seconds, got "1.5"'],
    [{ ...valid, "hub.secret": "é".repeat(100) }, "hub.secret: must be shorter than 200 bytes, got 200 bytes"],
    [
      { ...valid, "hub.callback": ["https://a.test/1", "https://a.test/2"] },
      "hub.callback: must be given once, got 2 values",
    ],
    [{ "hub.mode": "publish" }, "hub.url: is required (or hub.topic), got nothing"],
    [
      { "hub.mode": "publish", "hub.url": [TOPICS.atom, "https://elsewhere.test/feed"] },
      `hub.url: must be one of ${TOPICS.atom}, ${TOPICS.json}, ${TOPICS.reviews}, got "https://elsewhere.test/feed"`,
    ],
    // A publish may name its topics with hub.topic: the refusal names the parameter that was sent.
    [
      { "hub.mode": "publish", "hub.topic": "https://elsewhere.test/feed" },
      `hub.topic: must be one of ${TOPICS.atom}, ${TOPICS.json}, ${TOPICS.reviews}, got "https://elsewhere.test/feed"`,
    ],
    [
      { "hub.mode": "publish", "hub.url": TOPICS.atom, "hub.topic": "https://elsewhere.test/feed" },
      `hub.topic: must be one of ${TOPICS.atom}, ${TOPICS.json}, ${TOPICS.reviews}, got "https://elsewhere.test/feed"`,
    ],
  ])("400 for %j", async (form, reason) => {
    const res = await answerOf(await hub.h.post(form));
    expect(res.status).toBe(400);
    expect(res.type).toBe("text/plain; charset=utf-8");
    expect(res.text.startsWith(reason)).toBe(true);
    expect(await hub.h.pending()).toEqual([]);
  });

  it("answers a client that prefers JSON with the API's error body, the issue naming the parameter and value", async () => {
    const json = { accept: "application/json" };
    const callback = "http://reader.example.net/cb";
    const res = await hub.h.post({ ...valid, "hub.callback": callback }, undefined, undefined, json);
    expect([res.status, res.headers.get("content-type"), res.headers.get("vary")]).toEqual([
      400,
      "application/json; charset=utf-8",
      "Accept",
    ]);
    expect(await res.json()).toEqual({
      error: "invalid_hub_request",
      message: `hub.callback: must be an https URL, got "${callback}"`,
      issues: [{ path: "hub.callback", value: callback, message: "must be an https URL" }],
    });
    // A secret is never in it either, and other refusals take the same shape.
    const secret = await hub.h.post({ ...valid, "hub.secret": "top-secret-".repeat(20) }, undefined, undefined, json);
    const body = await secret.text();
    expect(body).not.toContain("top-secret");
    expect(JSON.parse(body).issues).toEqual([
      { path: "hub.secret", value: "220 bytes", message: "must be shorter than 200 bytes" },
    ]);
    // A parameter not given is null, so the issue has its value as QueryIssue requires; a charset
    // parameter on the Accept entry is still a preference for JSON.
    const missing = await hub.h.post({ "hub.mode": "publish" }, undefined, undefined, {
      accept: "application/json; charset=utf-8",
    });
    expect((await missing.json()).issues).toEqual([
      { path: "hub.url", value: null, message: "is required (or hub.topic)" },
    ]);
    const wrongType = await hub.h.post({}, "text/plain", "hub.mode=subscribe", json);
    expect([wrongType.status, (await wrongType.json()).error]).toEqual([415, "unsupported_media_type"]);
    // Plain text stays the default (WebSub §5.1.2), for */* and for no Accept at all.
    for (const accept of [{ accept: "*/*" }, {}] as Record<string, string>[]) {
      const plain = await hub.h.post({ ...valid, "hub.callback": callback }, undefined, undefined, accept);
      expect([plain.status, plain.headers.get("content-type")]).toEqual([400, "text/plain; charset=utf-8"]);
    }
  });

  it("refuses a hub parameter that does not percent-decode to UTF-8, naming it and never echoing a secret", async () => {
    const form = "application/x-www-form-urlencoded";
    const base = `hub.mode=subscribe&hub.topic=${encodeURIComponent(valid["hub.topic"])}`;
    const cb = `hub.callback=${encodeURIComponent(valid["hub.callback"])}`;
    const secret = await answerOf(await hub.h.post({}, form, `${base}&${cb}&hub.secret=%FF%FE`));
    expect(secret).toEqual({
      status: 400,
      type: "text/plain; charset=utf-8",
      text: "hub.secret: must be percent-encoded UTF-8 (%XX escapes that decode to UTF-8 text, %25 for a literal %), got 6 bytes as sent\n",
    });
    const json = await hub.h.post({}, form, `${base}&${cb}&hub.secret=%FF%FE`, { accept: "application/json" });
    expect((await json.json()).issues).toEqual([
      {
        path: "hub.secret",
        value: "6 bytes as sent",
        message: "must be percent-encoded UTF-8 (%XX escapes that decode to UTF-8 text, %25 for a literal %)",
      },
    ]);
    // The callback and topic likewise: the parser would have kept the text as sent, %3A and all.
    for (const [raw, field] of [
      [`${base}&hub.callback=https%3A%2F%2Fsub.example.test%2Fcb%3Fx%3D%FF`, "hub.callback"],
      [`hub.mode=subscribe&${cb}&hub.topic=${encodeURIComponent(TOPICS.atom)}%E9`, "hub.topic"],
      [`hub.mode=publish&hub.url=${encodeURIComponent(TOPICS.atom)}%`, "hub.url"],
    ]) {
      const res = await answerOf(await hub.h.post({}, form, raw));
      expect([res.status, res.text.split(":")[0]], raw).toEqual([400, field]);
    }
    // Bytes sent unescaped are read as UTF-8 too: a lone 0xE9 (é from ISO-8859-1) was read as
    // U+FFFD, and a secret so read keyed signatures the subscriber could never match.
    const bytes = (text: string, tail: number[]) =>
      fetch(hub.h.endpoint, {
        method: "POST",
        headers: { "content-type": form },
        body: Buffer.concat([Buffer.from(text), Buffer.from(tail)]),
      });
    const latin1 = await answerOf(await bytes(`${base}&${cb}&hub.secret=s`, [0xe9]));
    expect([latin1.status, latin1.text.split(":")[0], latin1.text.includes("\uFFFD")]).toEqual([
      400,
      "hub.secret",
      false,
    ]);
    expect(await hub.h.pending()).toEqual([]);
    // A literal % sent as %25, and an unknown parameter's bad escape, are accepted. The subscriber
    // holds its verification, so the request is still pending when read (a callback that fails at
    // once could be verified, and dropped, before the read under load).
    const { respond, release } = heldResponder();
    const sub = await startSubscriber(inject("testTls").trusted, respond);
    try {
      const heldCb = `hub.callback=${encodeURIComponent(sub.callback())}`;
      const ok = await hub.h.post({}, form, `${base}&${heldCb}&hub.secret=%25FF%25FE&other=%FF`);
      expect(ok.status).toBe(202);
      expect(await hub.h.pending()).toMatchObject([{ secret: "%FF%FE" }]);
    } finally {
      release();
      await hub.h.hub.idle();
      await sub.close();
    }
    // UTF-8 sent unescaped is accepted, as the form parser reads it as what it is.
    const utf8 = `hub.callback=${encodeURIComponent("https://sub.example.test/utf8")}`;
    expect((await bytes(`${base}&${utf8}&hub.secret=s`, [0xc3, 0xa9])).status).toBe(202);
  });

  it("never echoes a rejected secret", async () => {
    const res = await answerOf(await hub.h.post({ ...valid, "hub.secret": "top-secret-".repeat(20) }));
    expect(res.status).toBe(400);
    expect(res.text).not.toContain("top-secret");
  });

  it.each([
    ["application/json", JSON.stringify(valid)],
    ["text/plain", "hub.mode=subscribe"],
    ["multipart/form-data; boundary=x", "--x--"],
  ])("415 for %s", async (type, body) => {
    const res = await answerOf(await hub.h.post({}, type, body));
    expect(res.status).toBe(415);
    expect(res.text).toBe(`The hub accepts application/x-www-form-urlencoded bodies only, got ${type}.\n`);
  });

  it("413 for a body over the limit", async () => {
    const res = await answerOf(await hub.h.post({ ...valid, padding: "x".repeat(20_000) }));
    expect(res.status).toBe(413);
    expect(res.text).toBe("The request body is larger than 16kb.\n");
  });

  it("413 for more parameters than the parser accepts, saying how many it takes", async () => {
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`p${i}`, "1"]));
    const res = await answerOf(await hub.h.post({ ...valid, ...many }));
    expect(res.status).toBe(413);
    expect(res.text).toBe("The request body has more than 64 parameters.\n");
  });

  it("405 with Allow for other methods, 204 with Allow to a plain OPTIONS", async () => {
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(hub.h.endpoint, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toBe("POST, OPTIONS");
    }
    const options = await fetch(hub.h.endpoint, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("202 for a publish naming topics with hub.url or hub.topic", async () => {
    expect((await hub.h.post({ "hub.mode": "publish", "hub.url": TOPICS.atom })).status).toBe(202);
    expect((await hub.h.post({ "hub.mode": "publish", "hub.topic": [TOPICS.json, TOPICS.reviews] })).status).toBe(202);
    // Another spelling of a topic, a percent-encoded unreserved character in it (W3C WebSub §5.1.1).
    expect(
      (await hub.h.post({ "hub.mode": "publish", "hub.url": TOPICS.atom.replace("feed.", "%66eed%2E") })).status,
    ).toBe(202);
    await hub.h.hub.idle();
  });

  it("answers a publish 202 only once the ping is recorded, and 503 with Retry-After when it cannot be", async () => {
    const recorded: string[][] = [];
    let up = true;
    const durable = await startHarness({
      publish: async (topics) => {
        if (!up) throw new Error("connect ECONNREFUSED");
        recorded.push(topics);
      },
    });
    try {
      expect((await durable.post({ "hub.mode": "publish", "hub.url": TOPICS.atom })).status).toBe(202);
      expect(recorded).toEqual([[TOPICS.atom]]);
      up = false;
      const res = await durable.post({ "hub.mode": "publish", "hub.url": TOPICS.json });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("30");
      expect(recorded).toEqual([[TOPICS.atom]]);
    } finally {
      await durable.close();
    }
  });
});

describe("schema export", () => {
  it("converts to JSON Schema for the OpenAPI document", () => {
    const schema = z.toJSONSchema(HubRequestSchema, { io: "input" }) as { oneOf: { properties: object }[] };
    expect(schema.oneOf.map((s) => Object.keys(s.properties))).toEqual([
      ["hub.mode", "hub.callback", "hub.topic", "hub.lease_seconds", "hub.secret"],
      ["hub.mode", "hub.url", "hub.topic"],
    ]);
  });
});
