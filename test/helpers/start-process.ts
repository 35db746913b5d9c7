import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface StartedProcess {
  child: ChildProcess;
  /** Where it listens, e.g. `http://127.0.0.1:4321`. */
  url: string;
  /** The public origin it announced (`public base …`), i.e. the BASE_URL it built for. */
  publicBase: string;
  /** Everything written to stdout and stderr so far, the build's output included. */
  output(): string;
  /** SIGTERM, then the exit code; a no-op when it has already exited. */
  stop(): Promise<number | null>;
}

/**
 * Runs `npm start` (`sidecar/start.ts`) as a real child process with only `env` plus PATH and HOME,
 * and resolves once it prints its listening line, so tests see exactly what an operator sees.
 */
export function startProcess(env: Record<string, string>, args: string[] = []): Promise<StartedProcess> {
  const child = spawn(path.join(ROOT, "node_modules/.bin/node"), ["sidecar/start.ts", ...args], {
    cwd: ROOT,
    env: {
      PATH: `${path.join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
      HOME: process.env.HOME ?? "",
      // The run's temporary folder (test/global-setup.ts), so what the server leaves there goes with it.
      TMPDIR: os.tmpdir(),
      ...env,
    },
  });
  let output = "";
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    return exited;
  };
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      output += d;
      const m = /listening on (http:\/\/\S+) \(.*public base (http\S+)\)/.exec(output);
      if (m) resolve({ child, url: m[1] as string, publicBase: m[2] as string, output: () => output, stop });
    });
    child.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}
