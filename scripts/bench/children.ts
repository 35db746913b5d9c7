import { type ChildProcess, type ExecFileOptions, execFile } from "node:child_process";

/**
 * Every child process the bench starts (builds, servers, generators, the undici baseline), so an
 * interrupted run can end them: a SIGTERM from CI reaches only the bench, and a server left
 * running would hold its port and temp folder.
 */
const live = new Set<ChildProcess>();

export function track<C extends ChildProcess>(child: C): C {
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

export function killAll(): void {
  for (const child of live) child.kill("SIGKILL");
}

/** Runs `node ARGS` with this process's Node; resolves with stdout, rejects with stderr in the message. */
export function runNode(args: string[], opts: ExecFileOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    track(
      execFile(process.execPath, args, { maxBuffer: 1 << 20, ...opts }, (err, stdout) => {
        if (err) reject(err);
        else resolve(String(stdout));
      }),
    );
  });
}
