import { describe, expect, it } from "vitest";
import { fileHarness, TOPICS, VALID_SUBSCRIPTION } from "../../helpers/hub-harness.ts";

/** The hub's 400 names every parameter at fault at once (docs/websub.md), so a client mends its request in one go. */
const hub = fileHarness();

const valid = VALID_SUBSCRIPTION;

describe("a request with several parameters at fault", () => {
  it("is refused with each of them, and the value received, in the text and the JSON body", async () => {
    const json = { accept: "application/json" };
    const callback = "http://reader.example.net/cb";
    // A topic naming none of the hub's is one of them, though the hub checks it once the rest is valid.
    const other = "https://reviews.example.test/other.xml";
    const form = { ...valid, "hub.callback": callback, "hub.lease_seconds": "1.5", "hub.topic": other };
    const topics = `must be one of ${TOPICS.atom}, ${TOPICS.json}, ${TOPICS.reviews}`;
    const message = `hub.callback: must be an https URL, got "${callback}"; hub.lease_seconds: must be a whole number of seconds, got "1.5"; hub.topic: ${topics}, got "${other}"`;
    const plain = await hub.h.post(form);
    expect([plain.status, await plain.text()]).toEqual([400, `${message}\n`]);
    expect(await (await hub.h.post(form, undefined, undefined, json)).json()).toEqual({
      error: "invalid_hub_request",
      message,
      issues: [
        { path: "hub.callback", value: callback, message: "must be an https URL" },
        { path: "hub.lease_seconds", value: "1.5", message: "must be a whole number of seconds" },
        { path: "hub.topic", value: other, message: topics },
      ],
    });
  });
});

describe("a body that does not decode as its Content-Encoding says", () => {
  it.each(["gzip", "deflate", "br"])(
    "is a 400 naming Content-Encoding %s, not the decompressor's words",
    async (coding) => {
      const res = await hub.h.post({}, "application/x-www-form-urlencoded", "hub.mode=publish", {
        "content-encoding": coding,
        accept: "application/json",
      });
      const message = "the request body does not decode as this coding";
      expect([res.status, await res.json()]).toEqual([
        400,
        {
          error: "invalid_hub_request",
          message: `Content-Encoding: ${message}, got "${coding}"`,
          issues: [{ path: "Content-Encoding", value: coding, message }],
        },
      ]);
    },
  );
});

describe("a hub.lease_seconds of more than 10 digits", () => {
  it("is refused as too long, not as what it is, a whole number", async () => {
    for (const lease of ["99999999999", "00000000003600"]) {
      const res = await hub.h.post({ ...valid, "hub.lease_seconds": lease });
      expect([res.status, await res.text()]).toEqual([
        400,
        `hub.lease_seconds: must be at most 10 digits (a lease past the hub's bounds is clamped to them), got "${lease}"\n`,
      ]);
    }
  });
});

describe("an empty value among repeated ones", () => {
  it("counts as absent, as a lone empty value does, rather than make the parameter required", async () => {
    const ping = await fetch(hub.h.endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `hub.mode=publish&hub.url=&hub.url=${encodeURIComponent(TOPICS.atom)}`,
    });
    expect([ping.status, await ping.text()]).toEqual([202, "Accepted: changed topics will be distributed.\n"]);
    const none = await hub.h.post({ "hub.mode": "publish", "hub.url": ["", ""] });
    expect([none.status, await none.text()]).toEqual([400, "hub.url: is required (or hub.topic), got nothing\n"]);
  });
});

describe("a hub.topic longer than 2048 characters", () => {
  // Another spelling of the Atom topic: the hub would echo all of it in every verification request.
  const long = `https://reviews.example.test/${"./".repeat(1100)}feed.xml`;
  // Echoed as its first 200 characters, "…" and its length, as every 400 echoes a long value.
  const echoed = `${long.slice(0, 200)}… (${long.length} characters)`;
  const shown = JSON.stringify(echoed);

  it("is refused with 400 naming hub.topic and the value, as a long hub.callback is", async () => {
    const res = await hub.h.post({ ...valid, "hub.topic": long });
    expect([res.status, await res.text()]).toEqual([400, `hub.topic: must be at most 2048 characters, got ${shown}\n`]);
    const json = await hub.h.post({ ...valid, "hub.topic": long }, undefined, undefined, {
      accept: "application/json",
    });
    expect((await json.json()).issues).toEqual([
      { path: "hub.topic", value: echoed, message: "must be at most 2048 characters" },
    ]);
  });

  it("is refused in a publish ping too, in hub.url or hub.topic", async () => {
    for (const field of ["hub.url", "hub.topic"]) {
      const res = await hub.h.post({ "hub.mode": "publish", [field]: [TOPICS.json, long] });
      expect([res.status, await res.text()]).toEqual([
        400,
        `${field}: must be at most 2048 characters, got ${JSON.stringify([TOPICS.json, echoed])}\n`,
      ]);
    }
  });
});
