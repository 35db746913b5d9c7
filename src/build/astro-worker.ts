import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT, YOUNG_GENERATION } from "./astro-build.ts";
import {
  type BuildNotice,
  PER_BUILD_VARIABLES,
  WorkerReplySchema,
  type WorkerRequest,
} from "./astro-worker-protocol.ts";

/**
 * A long-lived process that runs `astro build` again and again (`npm start`'s rebuilds): a fresh
 * `astro build` spends most of a small build starting Node and loading Astro, Vite, Rolldown and
 * the project's dependencies; this keeps them loaded between builds.
 *
 * Bounded: Astro imports each build's server bundle from that build's output folder, so every
 * build leaves its modules in the process. After `maxBuilds` builds, or when a build leaves the
 * process above `maxRssBytes`, the process is ended and the next build (or `warm`) starts a
 * fresh one. A failed build ends the process too (astro-worker-main.ts exits), so a failure never
 * leaves Astro's state behind for the next build. Aborting a build ends the process; `close`
 * ends it for good, and the process also exits by itself when this one goes away.
 */

export interface AstroWorkerLimits {
  /** Builds one process runs before it is replaced. */
  maxBuilds: number;
  /** Resident memory after a build above which the process is replaced. */
  maxRssBytes: number;
}

export const DEFAULT_WORKER_LIMITS: AstroWorkerLimits = { maxBuilds: 20, maxRssBytes: 1536 * 1024 * 1024 };

export interface WorkerBuild {
  /** The complete environment of the build, as a fresh `astro build` process would get it. */
  env: NodeJS.ProcessEnv;
  silent: boolean;
  /** Aborting ends the build (and its process). */
  signal?: AbortSignal;
  /** Called with each notice as it arrives, before the build ends. */
  onNotice?: (notice: BuildNotice) => void;
}

export interface WorkerBuildResult {
  /** 0 on success; the process's exit code when the build failed; 128 when aborted. */
  code: number;
  /** With `output: "capture"`: the end of what the build printed (both streams, at most 64 KiB). */
  output?: string;
  /** What the build said about the content over its channel (src/build/build-channel.ts). */
  notices: BuildNotice[];
}

interface Proc {
  child: ChildProcess;
  /** The environment it was started with, minus the per-build variables. */
  key: string;
  builds: number;
  rssBytes: number;
  /** Asked to end (SIGTERM sent). */
  ending: boolean;
  /** Resolves with the exit code (128 for a signal) once the process and its output have closed. */
  closed: Promise<number>;
  /** Resolves with the id of each finished build. */
  onDone?: (id: number) => void;
  /** With `output: "capture"`: what the current build printed so far (its end). */
  output: string;
  /** What the current build sent about the content. */
  notices: BuildNotice[];
  /** The current build's `onNotice`. */
  onNotice?: (notice: BuildNotice) => void;
}

/** Captured output is bounded: a failing build of 100,000 reviews can print megabytes. */
const MAX_CAPTURE = 64 * 1024;

const MAIN = path.join(import.meta.dirname, "astro-worker-main.ts");
/** Preloaded as one-off builds preload it (native-memory.ts): Rolldown's allocator gives back what it freed. */
const NATIVE_MEMORY = pathToFileURL(path.join(import.meta.dirname, "native-memory.ts")).href;
/** SIGTERM first; a process that has not exited by then gets SIGKILL. */
const KILL_GRACE_MS = 5_000;

/** Everything but the per-build variables: a change there needs a fresh process. */
function stableKey(env: NodeJS.ProcessEnv): string {
  const skip = new Set<string>(PER_BUILD_VARIABLES);
  const entries = Object.entries(env).filter(([k, v]) => v !== undefined && !skip.has(k));
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export class AstroBuildWorker {
  readonly #root: string;
  readonly #limits: AstroWorkerLimits;
  #proc?: Proc;
  readonly #ending = new Set<Promise<number>>();
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #seq = 0;
  #lastBuildPid?: number;
  readonly #capture: boolean;

  /**
   * `root`: the builds' working folder (the project). Aborting `signal` closes the worker.
   * `output`: `inherit` (the default) lets the builds print to this process's stdout and stderr;
   * `capture` keeps it for each build's result instead (npm start's quiet terminal), and
   * has Astro print only warnings and errors.
   */
  constructor(
    opts: {
      root?: string;
      limits?: Partial<AstroWorkerLimits>;
      signal?: AbortSignal;
      output?: "inherit" | "capture";
    } = {},
  ) {
    this.#capture = opts.output === "capture";
    this.#root = opts.root ?? PROJECT_ROOT;
    this.#limits = { ...DEFAULT_WORKER_LIMITS, ...opts.limits };
    if (opts.signal?.aborted) this.#closed = true;
    opts.signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  /** PID of the current process, if one is running. */
  get pid(): number | undefined {
    return this.#proc?.child.pid;
  }

  /** True when a process is running that has finished a build: the next build will be a warm one. */
  get warmed(): boolean {
    return (this.#proc?.builds ?? 0) > 0 && this.#proc?.child.connected === true;
  }

  /** PID of the process that ran the last build (it may have been replaced since). */
  get lastBuildPid(): number | undefined {
    return this.#lastBuildPid;
  }

  /** Starts a process for builds with `env` now, if none is running, so the next build finds Astro loaded. */
  warm(env: NodeJS.ProcessEnv): void {
    if (this.#closed) return;
    // Another environment needs another process; one that died meanwhile cannot build.
    if (this.#proc && (this.#proc.key !== stableKey(env) || !this.#proc.child.connected)) this.#end(this.#proc);
    this.#proc ??= this.#spawn(env);
  }

  /** Runs one build; builds run one at a time, in call order. Never rejects. */
  run(build: WorkerBuild): Promise<WorkerBuildResult> {
    const run = this.#queue.then(() => this.#run(build));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the process (SIGTERM, then SIGKILL) and refuses further builds; resolves once it has exited. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#proc) this.#end(this.#proc);
    while (this.#ending.size > 0) await Promise.all([...this.#ending]);
  }

  async #run(build: WorkerBuild): Promise<WorkerBuildResult> {
    if (this.#closed || build.signal?.aborted) return { code: 128, notices: [] };
    this.warm(build.env);
    const proc = this.#proc as Proc;
    const id = ++this.#seq;
    let aborted = false;
    const abort = () => {
      aborted = true;
      this.#end(proc);
    };
    build.signal?.addEventListener("abort", abort, { once: true });
    const done = new Promise<number>((resolve) => {
      proc.onDone = (finished) => {
        if (finished === id) resolve(0);
      };
      void proc.closed.then((code) => resolve(aborted ? 128 : code === 0 ? 1 : code));
    });
    const env = Object.fromEntries(PER_BUILD_VARIABLES.map((k) => [k, build.env[k] ?? null])) as WorkerRequest["env"];
    // Astro's level even when the output is only captured (its notices come over the channel): the
    // level is baked into the pages' code, and a build at another level than `npm run build`'s
    // renders every page again (a first save after it took 22 s at 10,000 reviews instead of 6 s).
    const logLevel = build.silent ? "silent" : "info";
    const request: WorkerRequest = { type: "build", id, env, logLevel };
    proc.output = "";
    proc.notices = [];
    proc.onNotice = build.onNotice;
    proc.child.send(request, (err) => {
      if (err) this.#end(proc);
    });
    const code = await done;
    build.signal?.removeEventListener("abort", abort);
    proc.onDone = undefined;
    proc.onNotice = undefined;
    this.#lastBuildPid = proc.child.pid;
    if (code === 0) {
      proc.builds++;
      if (proc.builds >= this.#limits.maxBuilds || proc.rssBytes > this.#limits.maxRssBytes) this.#end(proc);
    } else {
      this.#end(proc);
    }
    const notices = proc.notices;
    return this.#capture ? { code, output: proc.output, notices } : { code, notices };
  }

  #spawn(env: NodeJS.ProcessEnv): Proc {
    // A process group of its own, so ending it also ends what it started (Vite's esbuild service),
    // and nothing is left running when `close` resolves.
    // Without BUILD_NODE_FLAGS' old-generation flags: here an editor waits on every rebuild, and the
    // bounded heap growth cost a save at 10,000 reviews 0.4 s (2.75 against 2.36 s, docs/benchmarks-log.md,
    // 2026-12-04). Rolldown's allocator options and the young generation's size cost a save nothing
    // measurable, and the latter kept the worker at 0.86 GiB instead of 1.0–1.2 (the same log).
    const child = spawn(process.execPath, [YOUNG_GENERATION, "--import", NATIVE_MEMORY, MAIN], {
      cwd: this.#root,
      env,
      stdio: ["ignore", this.#capture ? "pipe" : "inherit", this.#capture ? "pipe" : "inherit", "ipc"],
      detached: true,
    });
    const closed = new Promise<number>((resolve) => {
      child.once("error", () => resolve(127));
      child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    }).then(async (code) => {
      await groupEnded(child.pid);
      return code;
    });
    const proc: Proc = {
      child,
      key: stableKey(env),
      builds: 0,
      rssBytes: 0,
      ending: false,
      closed,
      output: "",
      notices: [],
    };
    const keep = (d: Buffer) => {
      proc.output = (proc.output + d.toString()).slice(-MAX_CAPTURE);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.on("message", (raw: unknown) => {
      const reply = WorkerReplySchema.safeParse(raw);
      if (!reply.success) return;
      const r = reply.data;
      if (r.type === "ready" || r.type === "done") proc.rssBytes = r.rssBytes;
      else {
        proc.notices.push(r);
        proc.onNotice?.(r);
      }
      if (r.type === "done") proc.onDone?.(r.id);
    });
    void closed.then(() => {
      if (this.#proc === proc) this.#proc = undefined;
    });
    return proc;
  }

  /** Ends `proc` (it stays tracked until it has exited, so `close` can wait for it). */
  #end(proc: Proc): void {
    if (this.#proc === proc) this.#proc = undefined;
    if (proc.ending || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
    proc.ending = true;
    const kill = (signal: NodeJS.Signals) => signalGroup(proc.child.pid, signal) || proc.child.kill(signal);
    kill("SIGTERM");
    const force = setTimeout(() => kill("SIGKILL"), KILL_GRACE_MS);
    const ending = proc.closed.finally(() => {
      clearTimeout(force);
      this.#ending.delete(ending);
    });
    this.#ending.add(ending);
  }
}

/** Sends `signal` to the process group led by `pid`; false when there is none. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until nothing is left of the process group led by `pid` (the worker has exited; a child
 * of it may take a moment to notice). What is still there after `KILL_GRACE_MS` gets SIGKILL.
 */
async function groupEnded(pid: number | undefined): Promise<void> {
  const started = Date.now();
  while (signalGroup(pid, 0)) {
    if (Date.now() - started > KILL_GRACE_MS) signalGroup(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 20));
  }
}
