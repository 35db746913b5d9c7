import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

/**
 * `/healthz` is not rate-limited (a load balancer polls it), and with DATABASE_URL each answer asks
 * the shared database. Probes that arrive together must share one round trip, or a flood of
 * `/healthz` becomes a flood of queries on the pool every other request waits on.
 */

let app: TestApp;
let calls = 0;
/** The probes waiting for the database's answer. */
const waiting: ((up: boolean) => void)[] = [];
const answer = (up: boolean) => {
  for (const resolve of waiting.splice(0)) resolve(up);
};

const built = buildBeforeAll(PROJECT_CONTENT);

beforeAll(async () => {
  app = await startApp(built.distDir, {
    routers: () => ({
      databaseReachable: () => {
        calls++;
        return new Promise<boolean>((resolve) => waiting.push(resolve));
      },
    }),
  });
});

afterAll(async () => {
  await app?.close();
});

describe("GET /healthz with a shared database", () => {
  it("asks the database once for readiness probes that arrive while one is in flight", async () => {
    calls = 0;
    // Counted after the app's own listener has taken each request to the probe.
    let arrived = 0;
    const count = () => arrived++;
    app.server.on("request", count);
    const answers = Array.from({ length: 20 }, () => fetch(`${app.url}/healthz`));
    // Every probe has reached the server before the database answers.
    await expect.poll(() => arrived).toBe(20);
    app.server.off("request", count);
    answer(true);
    const bodies = await Promise.all((await Promise.all(answers)).map((r) => r.json()));
    expect(calls).toBe(1);
    expect(bodies.every((b) => b.status === "ok" && b.database === "ok")).toBe(true);
  });

  it("asks again once that answer is out: a later probe sees the database as it is then", async () => {
    calls = 0;
    const later = fetch(`${app.url}/healthz`);
    await expect.poll(() => calls).toBe(1);
    answer(false);
    const res = await later;
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "degraded", database: "unreachable" });
  });
});
