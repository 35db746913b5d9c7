import { readFile } from "node:fs/promises";
import { Agent, request } from "undici";

/**
 * Child process of the hub bench: the floor the hub is compared with. POSTs one body to every
 * callback with plain undici, `concurrency` at a time, with the same timeouts, headers and trust
 * store (NODE_EXTRA_CA_CERTS) as the hub, and no queue, store or retry bookkeeping.
 * `node hub-baseline.ts JOB.json`; warms up, prints "ready", starts on a line on stdin, prints "done".
 */
interface Job {
  callbacks: string[];
  bodyFile: string;
  contentType: string;
  link: string;
  concurrency: number;
  timeoutMs: number;
}

const job = JSON.parse(await readFile(process.argv[2] as string, "utf8")) as Job;
const body = await readFile(job.bodyFile);
const agent = new Agent({
  connect: { timeout: job.timeoutMs },
  headersTimeout: job.timeoutMs,
  bodyTimeout: job.timeoutMs,
});

async function post(callback: string): Promise<void> {
  const res = await request(callback, {
    dispatcher: agent,
    method: "POST",
    headers: { "content-type": job.contentType, link: job.link },
    body,
  });
  await res.body.dump();
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`${callback} answered ${res.statusCode}`);
}

/** Runs `fn` on every callback, `job.concurrency` at a time, as the hub's queue does. */
async function each(fn: (callback: string) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < job.callbacks.length) await fn(job.callbacks[next++] as string);
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
}

// The hub meets the publish with connections kept alive from verifying every subscriber moments
// before; the baseline gets the same head start with one GET per callback.
await each(async (callback) => {
  const res = await request(`${callback}?hub.challenge=warm`, { dispatcher: agent });
  await res.body.dump();
});
process.stdout.write("ready\n");
process.stdin.once("data", async () => {
  await each(post);
  process.stdout.write("done\n");
  await agent.close();
  process.exit(0);
});
