import { describe, expect, it } from "vitest";
import { parseHubRequest, undecodableParameter } from "../../../src/api/hub-request.ts";

const subscribe = { "hub.mode": "subscribe", "hub.topic": "https://reviews.example.test/feed.xml" };

describe("parseHubRequest", () => {
  it("names every parameter at fault, a repeated one beside the others", () => {
    const parsed = parseHubRequest({
      ...subscribe,
      "hub.callback": "http://reader.example.net/cb",
      "hub.secret": ["a", "b"],
    });
    expect(parsed).toEqual({
      ok: false,
      reason:
        'hub.secret: must be given once, got 2 values; hub.callback: must be an https URL, got "http://reader.example.net/cb"',
      issues: [
        { path: "hub.secret", value: "2 values", message: "must be given once" },
        { path: "hub.callback", value: "http://reader.example.net/cb", message: "must be an https URL" },
      ],
    });
  });

  it("says a repeated parameter must be given once, not that it is missing", () => {
    const parsed = parseHubRequest({ ...subscribe, "hub.callback": ["https://a.test/1", "https://a.test/2"] });
    expect(parsed.ok || parsed.reason).toBe("hub.callback: must be given once, got 2 values");
  });

  it("names every parameter that does not percent-decode to UTF-8, a secret by its length only", () => {
    const bad = undecodableParameter("hub.mode=subscribe&hub.callback=https%3A%2F%2Fa.test%2F%FF&hub.secret=%FF%FE");
    expect(bad?.issues.map((i) => [i.path, i.value])).toEqual([
      ["hub.callback", "https%3A%2F%2Fa.test%2F%FF"],
      ["hub.secret", "6 bytes as sent"],
    ]);
    expect(bad?.reason.split("; ").map((r) => r.split(":")[0])).toEqual(["hub.callback", "hub.secret"]);
  });

  it("names a publish's topic URLs that name no topic, each parameter beside the other", () => {
    const topics = {
      topics: ["https://r.test/feed.xml"],
      topicOf: (raw: string) => (raw === "https://r.test/feed.xml" ? raw : undefined),
    };
    const parsed = parseHubRequest(
      {
        "hub.mode": "publish",
        "hub.url": ["https://r.test/feed.xml", "https://x.test/a"],
        "hub.topic": "https://x.test/b",
      },
      topics,
    );
    expect(parsed.ok || parsed.issues.map((i) => [i.path, i.value])).toEqual([
      ["hub.url", "https://x.test/a"],
      ["hub.topic", "https://x.test/b"],
    ]);
    expect(parseHubRequest({ "hub.mode": "publish", "hub.url": "https://r.test/feed.xml" }, topics).ok).toBe(true);
  });
});
