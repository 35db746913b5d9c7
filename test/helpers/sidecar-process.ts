import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "./free-port.ts";

export { freePort };

/** `npm run sidecar` as a real child process (so a test can SIGKILL it), on a port chosen here. */

const START = path.resolve(import.meta.dirname, "../../sidecar/start.ts");

export interface SidecarProcess {
  port: number;
  url: string;
  child: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

export async function startSidecar(env: Record<string, string>): Promise<SidecarProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [START, "--sidecar-only"], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.setEncoding("utf8").on("data", (d: string) => output.push(d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => output.push(d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`sidecar exited with ${child.exitCode}:\n${output.join("")}`);
    const ok = await fetch(`${url}/livez`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error(`sidecar did not start:\n${output.join("")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    url,
    child,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/**
 * Polls `check` every 100 ms until it holds; on time-out the error carries the last `tail`
 * characters each instance logged (why it stalled). `instances` is read at the time-out, so a
 * test can make this before it starts them.
 */
export function untilInstances(
  instances: () => SidecarProcess[],
  opts: { ms: number; tail: number },
): (what: string, check: () => Promise<boolean> | boolean, ms?: number) => Promise<void> {
  return async (what, check, ms = opts.ms) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) {
        const logs = instances()
          .map((p, i) => `instance ${"AB"[i]}:\n${p.output.join("").slice(-opts.tail)}`)
          .join("\n");
        throw new Error(`timed out waiting for ${what}\n${logs}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
}
