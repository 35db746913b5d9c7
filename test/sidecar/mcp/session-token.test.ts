import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SessionTokens } from "../../../sidecar/mcp/session-token.ts";
import { ManualClock } from "../../helpers/manual-clock.ts";

const SECRET = "a-test-secret-that-is-long-enough-000";
const TTL = 60_000;

describe("SessionTokens", () => {
  it("signs the first expiry and the negotiated version into the id, and verifies it at any age", () => {
    const clock = new ManualClock();
    const tokens = new SessionTokens({ secret: SECRET, ttlMs: TTL, clock });
    const { id, claims } = tokens.issue("2025-06-18");
    expect(claims).toMatchObject({ v: 1, exp: clock.now() + TTL, pv: "2025-06-18" });
    // Whether its session is still live is the session store's to say (idleness, DELETE).
    clock.advance(10 * TTL);
    expect(tokens.verify(id)).toEqual({ ok: true, claims });
  });

  it("issues a different id every time", () => {
    const tokens = new SessionTokens({ secret: SECRET, ttlMs: TTL });
    const ids = new Set(Array.from({ length: 100 }, () => tokens.issue("2025-06-18").id));
    expect(ids.size).toBe(100);
  });

  it("refuses ids signed with another secret, tampered with or malformed", () => {
    const tokens = new SessionTokens({ secret: SECRET, ttlMs: TTL });
    const other = new SessionTokens({ secret: `${SECRET}x`, ttlMs: TTL });
    const { id } = tokens.issue("2025-06-18");
    const [payload, signature] = id.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const extended = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 1e9 })).toString("base64url");
    expect(other.verify(id)).toEqual({ ok: false, reason: "bad-signature" });
    expect(tokens.verify(`${extended}.${signature}`)).toEqual({ ok: false, reason: "bad-signature" });
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    expect(tokens.verify(`${payload}.${flipped}`)).toEqual({ ok: false, reason: "bad-signature" });
    expect(tokens.verify(`${payload}.${signature.slice(1)}`)).toEqual({ ok: false, reason: "malformed" });
    for (const bad of ["", "abc", `${id}.x`, ".x", "x".repeat(600)]) {
      expect(tokens.verify(bad), bad.slice(0, 20)).toEqual({ ok: false, reason: "malformed" });
    }
  });

  it("remembers verified ids without accepting anything it would refuse", () => {
    const clock = new ManualClock();
    const tokens = new SessionTokens({ secret: SECRET, ttlMs: TTL, clock });
    const { id, claims } = tokens.issue("2025-06-18");
    expect(tokens.verify(id)).toEqual({ ok: true, claims });
    const [payload, signature] = id.split(".") as [string, string];
    // A different last character (a canonical one, so only the signature check can refuse it).
    const other = signature.endsWith("A") ? "E" : "A";
    expect(tokens.verify(`${payload}.${signature.slice(0, -1)}${other}`)).toMatchObject({ ok: false });
    expect(tokens.verify(`${payload}x.${signature}`)).toMatchObject({ ok: false });
    // Past the remembered ids' bound (1024) the first is checked again from scratch, still valid.
    for (let i = 0; i < 1100; i++) expect(tokens.verify(tokens.issue("2025-06-18").id).ok).toBe(true);
    expect(tokens.verify(id)).toEqual({ ok: true, claims });
  });

  it("refuses a validly signed payload that is not a claims object", () => {
    const tokens = new SessionTokens({ secret: SECRET, ttlMs: TTL });
    // The documented format: base64url(JSON claims) "." base64url(HMAC-SHA256(secret, payload)).
    const signed = (text: string) => {
      const payload = Buffer.from(text).toString("base64url");
      return `${payload}.${createHmac("sha256", SECRET).update(payload).digest("base64url")}`;
    };
    const good = { v: 1, exp: Date.now() + TTL, pv: "2025-06-18", n: "abc" };
    expect(tokens.verify(signed(JSON.stringify(good)))).toMatchObject({ ok: true });
    for (const bad of ["not json", "[]", JSON.stringify({ ...good, v: 2 }), JSON.stringify({ ...good, exp: "x" })]) {
      expect(tokens.verify(signed(bad)), bad).toEqual({ ok: false, reason: "malformed" });
    }
  });
});
