import autocannon, { type Result } from "autocannon";
import { discardResponseBodies } from "./discard-bodies.ts";
import { cpuMicros } from "./proc-cpu.ts";
import type { Profile } from "./profile.ts";

// Before any run: the load generator must not spend its core decoding bodies it never reads.
discardResponseBodies();

/** One autocannon run against a running server. */
export interface LoadResult {
  /** Completed requests per second over the run. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** The server's CPU per completed request, µs (`serverPid` given, Linux); rides out a busy machine. */
  cpuUs?: number;
}

export interface LoadRequest {
  path: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  url: string;
  requests: LoadRequest[];
  durationS: number;
  connections: number;
  /** Every response must have this status, or the run measured something else (429, 500…). */
  expectStatus: number;
  /**
   * Seconds of the same requests first, not measured: the first second of a request type runs
   * 30-60% slower (JIT, inline caches), which would otherwise land on whichever run comes first.
   */
  warmupS?: number;
  /** Seconds before a request counts as timed out (autocannon's default is 10). */
  timeoutS?: number;
  /** Requests for the warm-up instead of `requests`, so a measured run starts with nothing cached. */
  warmupRequests?: LoadRequest[];
  /**
   * Send each of `requests` exactly once, all connections taking the next from one list, instead of
   * every connection cycling through all of them from the first (autocannon's way, so that
   * connections ask the same query at about the same time and only the first of them misses).
   * `durationS` is then ignored. autocannon prepares each connection's next request before it
   * knows the run is over, so give up to `connections` more requests than `amount`: those are
   * never sent, and none is sent twice.
   */
  once?: boolean;
  /** With `once`, how many to send; default all of `requests`. */
  amount?: number;
  /** The server process, to report its CPU per request. */
  serverPid?: number;
}

/**
 * Runs autocannon, each connection cycling through `requests` in order. A run whose responses are
 * not all `expectStatus`, or that saw connection errors, is rejected rather than reported.
 */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmupS) {
    await load({
      ...opts,
      requests: opts.warmupRequests ?? opts.requests,
      durationS: opts.warmupS,
      warmupS: undefined,
    });
  }
  let cursor = 0;
  const requests = opts.once
    ? [
        {
          method: "GET",
          // Built on the request autocannon passes in: without its host and port, autocannon 8 writes
          // `Host: undefined:undefined`, which the server refuses (RFC 9112 §3.2).
          setupRequest: (req: Record<string, unknown>) => ({
            ...req,
            method: "GET",
            ...opts.requests[Math.min(cursor++, opts.requests.length - 1)],
          }),
        },
      ]
    : opts.requests.map((r) => ({ method: "GET", path: r.path, headers: r.headers }));
  const cpuBefore = opts.serverPid === undefined ? undefined : cpuMicros(opts.serverPid);
  const { result, sendingS } = await new Promise<{ result: Result; sendingS: number }>((resolve, reject) => {
    let started = 0;
    autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        ...(opts.once ? { amount: opts.amount ?? opts.requests.length } : { duration: opts.durationS }),
        timeout: opts.timeoutS,
        requests,
      },
      (err, res) => (err ? reject(err) : resolve({ result: res, sendingS: (performance.now() - started) / 1000 })),
    ).on("start", () => {
      started = performance.now();
    });
  });
  const cpuAfter = opts.serverPid === undefined ? undefined : cpuMicros(opts.serverPid);
  const wrong = Object.entries(result.statusCodeStats).filter(([status]) => Number(status) !== opts.expectStatus);
  // A run that completed nothing measured nothing: a ratio over it would be infinite.
  if (wrong.length > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0) {
    const seen = Object.entries(result.statusCodeStats).map(([s, v]) => `${s}×${v.count}`);
    throw new Error(
      `load on ${opts.url}${opts.requests[0]?.path ?? ""}: expected every response to be ${opts.expectStatus}, ` +
        `got ${seen.join(", ") || "none"} and ${result.errors} errors (${result.timeouts} timeouts)`,
    );
  }
  return {
    // Over the time requests were being sent, not autocannon's `duration`: that one starts before
    // autocannon builds every connection's copy of every request (50 × 2,000 buffers for the
    // realistic mix, about 2.3 s here, during which nothing is sent), which understated that mix's
    // rate by about a quarter and left the server idle (docs/benchmarks.md, "What each section does").
    rps: result.requests.total / sendingS,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    cpuUs:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests.total,
  };
}

/** Mean of two runs: the baseline is measured before and after, so drift in machine load cancels. */
export function meanRps(a: LoadResult, b: LoadResult): number {
  return (a.rps + b.rps) / 2;
}

/**
 * `load` bound to one server and the run's profile (connections, warm-up, duration), so each bench
 * states only what it sends and what status it expects.
 */
export function loadRunner(url: string, p: Pick<Profile, "connections" | "warmupS" | "durationS">, serverPid?: number) {
  return (
    requests: LoadRequest[],
    expectStatus = 200,
    warmupRequests?: LoadRequest[],
    /** Send each request once, this many of them (see `LoadOptions.once`). */
    onceAmount?: number,
  ): Promise<LoadResult> =>
    load({
      url,
      requests,
      durationS: p.durationS,
      warmupS: onceAmount === undefined ? p.warmupS : undefined,
      connections: p.connections,
      expectStatus,
      warmupRequests,
      once: onceAmount !== undefined,
      amount: onceAmount,
      serverPid,
    });
}
