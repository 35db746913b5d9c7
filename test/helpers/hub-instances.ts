import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { type Subscriber, startSubscriber } from "./https-subscriber.ts";
import { type Harness, startHarness, TOPICS } from "./hub-harness.ts";

/**
 * Hub instances sharing one database, as several sidecars with one DATABASE_URL do, for the
 * PostgreSQL hub suites (`queue.test.ts` and its real-time part, `queue-waits.test.ts`). What a test
 * opens is closed after it (`closeOpened`, in an `afterEach`).
 */
const opened: { close(): Promise<unknown> }[] = [];

/** Closes, after the test, what `open` was given. */
export function open(...items: { close(): Promise<unknown> }[]): void {
  opened.push(...items);
}

/** Closes everything opened since the last call: each file's `afterEach`. */
export async function closeOpened(): Promise<void> {
  await Promise.all(opened.splice(0).map((x) => x.close()));
}

/** `n` instances over one database and one build folder, closed after the test. */
export async function instances(n: number): Promise<Harness[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-hub-shared-"));
  const distDir = await mkdtemp(path.join(os.tmpdir(), "pr-hub-dist-"));
  const out: Harness[] = [];
  // Same dataDir: the harness gives both the same database, as DATABASE_URL would.
  for (let i = 0; i < n; i++) out.push(await startHarness({ dataDir, distDir }));
  open(...out);
  return out;
}

/** One instance whose Atom topic is at v1, and one subscriber to it, owed whatever follows. */
export async function subscribedAtV1(): Promise<{ h: Harness; sub: Subscriber }> {
  const [h] = (await instances(1)) as [Harness];
  const sub = await startSubscriber(inject("testTls").trusted);
  open(sub);
  await h.writeTopic(TOPICS.atom, "<feed>v1</feed>");
  await h.hub.publish();
  await h.post({ "hub.mode": "subscribe", "hub.topic": TOPICS.atom, "hub.callback": sub.callback() });
  await h.hub.idle();
  return { h, sub };
}
