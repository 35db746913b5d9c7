import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { BENCH_BASE_URL, ROOT } from "./astro-build.ts";
import { track } from "./children.ts";

/**
 * The real server (`sidecar/start.ts`, as `npm start` runs it) in a child process. A child rather
 * than the app in this process, so the load generator and the server do not share an event loop:
 * on two cores each gets one, as a client and a server on different machines would.
 */
export interface ServerProcess {
  /** e.g. http://127.0.0.1:39123 */
  url: string;
  pid: number;
  /** SIGTERM (graceful shutdown), then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface ServerOptions {
  distDir: string;
  /** The content the dist was built from, so start-up finds the build current and does not rebuild. */
  contentDir: string;
  /** Extra variables (override the defaults below). */
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  sidecarOnly?: boolean;
  /** Give up if the server has not printed its address by then. */
  startTimeoutMs?: number;
}

const LISTENING = /listening on (http:\/\/\S+)/;

export async function startServer(opts: ServerOptions): Promise<ServerProcess> {
  const args = [...(opts.nodeArgs ?? []), path.join(ROOT, "sidecar/start.ts")];
  if (opts.sidecarOnly) args.push("--sidecar-only");
  const child = track(
    spawn(process.execPath, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: "0",
        LOG_LEVEL: "silent",
        BASE_URL: BENCH_BASE_URL,
        // The load generator is one client IP sending thousands of requests per second.
        RATE_LIMIT_PER_MINUTE: "10000000",
        DIST_DIR: opts.distDir,
        CONTENT_DIR: opts.contentDir,
        DATA_DIR: path.join(opts.distDir, "..", `data-${path.basename(opts.distDir)}`),
        ...opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`sidecar/start.ts did not start within ${opts.startTimeoutMs ?? 120_000} ms:\n${output}`));
    }, opts.startTimeoutMs ?? 120_000);
    const onData = (d: Buffer) => {
      output = (output + d.toString()).slice(-8000);
      const m = output.match(LISTENING);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`sidecar/start.ts exited (${code ?? signal}) before listening:\n${output}`));
    });
    child.once("error", reject);
  });
  // Keep the tail of the output: a server that dies mid-run says why on the bench's stderr.
  let stopping = false;
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`sidecar/start.ts exited unexpectedly (${code ?? signal}):\n${output}\n`);
  });
  const server = {
    url,
    pid: child.pid as number,
    stop: (graceMs = 10_000) => {
      stopping = true;
      return stopChild(child, graceMs);
    },
  };
  try {
    await settle(url, opts.startTimeoutMs ?? 120_000);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/**
 * Waits until the server answers `/healthz` promptly for 1.5 s on end. Right after listening,
 * single-origin mode publishes the build to its hub, which reloads the dataset: at 100,000 reviews
 * that blocks the event loop for seconds, and a measurement taken then would measure the reload.
 */
async function settle(url: string, timeoutMs: number): Promise<void> {
  const QUIET_MS = 1500;
  const SLOW_MS = 50;
  const end = performance.now() + timeoutMs;
  let quietSince = performance.now();
  while (performance.now() - quietSince < QUIET_MS) {
    if (performance.now() > end) throw new Error(`${url}/healthz did not answer steadily within ${timeoutMs} ms`);
    const t = performance.now();
    // A keep-alive socket can be reset when the server's idle timer fires just after a long block.
    const status = await fetch(`${url}/healthz`).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => 0,
    );
    if (status !== 200 && status !== 0) throw new Error(`${url}/healthz answered ${status}`);
    if (status === 0 || performance.now() - t > SLOW_MS) quietSince = performance.now();
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Ends a child process (SIGTERM, then SIGKILL after `graceMs`) and waits for it to exit. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
