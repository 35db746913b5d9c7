import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface NpmProcess {
  child: ChildProcess;
  /** The npm process's PID: what a container runtime or systemd signals. */
  pid: number;
  url: string;
  /** Everything written to stdout (pino JSON lines and the banner). */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) of the npm process. */
  exited: Promise<number | string | null>;
}

/**
 * Runs `npm <script>` as a deployment would (npm's own PID, its `sh -c`, then node) and resolves
 * once the server prints its address. `node_modules/.bin` goes first on PATH, as under `npm run`,
 * so the project's Node 24 runs the server.
 */
export function startNpm(script: string[], env: Record<string, string>, timeoutMs = 600_000): Promise<NpmProcess> {
  const child = spawn("npm", script, {
    cwd: ROOT,
    env: {
      PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
      HOME: process.env.HOME ?? "",
      TMPDIR: os.tmpdir(),
      PORT: "0",
      npm_config_update_notifier: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | string | null>((r) => child.once("exit", (code, sig) => r(code ?? sig)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm ${script.join(" ")} did not start:\n${err}`)), timeoutMs);
    const onData = () => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve({ child, pid: child.pid as number, url: m[1] as string, stdout: () => out, stderr: () => err, exited });
    };
    child.stdout?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm ${script.join(" ")} exited with ${code}:\n${err}`));
    });
  });
}

/** PIDs of every live descendant of `root`, read from /proc (Linux). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent PID; the command name (field 2) may contain spaces.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parent.set(Number(name), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, ppid] of parent) {
      if (ppid === pid) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILLs an npm process and everything under it, for a test's clean-up. The tree is read
 * first: once npm is gone its children are re-parented and no longer found under its PID.
 */
export function killTree(npm: NpmProcess | undefined): void {
  if (!npm || !isAlive(npm.pid)) return;
  const tree = descendants(npm.pid);
  npm.child.kill("SIGKILL");
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** True when nothing accepts connections at `url`'s port any more. */
export function portClosed(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}
