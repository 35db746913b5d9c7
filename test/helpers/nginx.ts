import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Debian's nginx in the foreground (`daemon off`) with a temp prefix, running deploy/nginx.conf
 * with only its "# test:" lines rewritten: upstream ports, listen port, dist root, hub rate limit.
 */

export const NGINX = "/usr/sbin/nginx";
const DEPLOY_CONF = path.resolve(import.meta.dirname, "../../deploy/nginx.conf");

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

export function nginxUnavailable(): string | undefined {
  return existsSync(NGINX) ? undefined : `no nginx at ${NGINX}: install Debian's nginx package`;
}

export interface NginxOptions {
  port: number;
  upstreams: number[];
  distDir: string;
  /** The sidecars' BASE_URL, which names the WebSub topics; default: nginx's own address. */
  baseUrl?: string;
  /** Keep the hub's per-client limit at the edge, which most tests would exceed; default off. */
  hubLimit?: boolean;
}

/** deploy/nginx.conf with the test's ports and paths. Fails if a marked line is missing. */
export async function testSiteConfig(opts: NginxOptions): Promise<string> {
  const lines = (await readFile(DEPLOY_CONF, "utf8")).split("\n");
  const out: string[] = [];
  let upstream = 0;
  const marks = { upstream: 0, listen: 0, root: 0, limit: 0, base: 0 };
  for (const line of lines) {
    if (line.includes("# test: instance")) {
      out.push(line.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${opts.upstreams[upstream++]}`));
      marks.upstream++;
    } else if (line.includes("# test: listen port")) {
      out.push(`    listen 127.0.0.1:${opts.port};`);
      marks.listen++;
    } else if (line.includes("# test: dist directory")) {
      out.push(`    root ${opts.distDir};`);
      marks.root++;
    } else if (line.includes("# test: public base")) {
      out.push(`    set $public_reviews_base ${opts.baseUrl ?? `http://127.0.0.1:${opts.port}`};`);
      marks.base++;
    } else if (line.includes("# test: hub limit")) {
      // 200 subscriptions from one test client would exceed the per-client edge limit.
      if (opts.hubLimit) out.push(line);
      marks.limit++;
    } else out.push(line);
  }
  if (Object.values(marks).some((n) => n === 0) || upstream !== opts.upstreams.length) {
    throw new Error(`deploy/nginx.conf lost a "# test:" marker: ${JSON.stringify(marks)}`);
  }
  return out.join("\n");
}

export async function startNginx(opts: NginxOptions): Promise<RunningNginx> {
  const prefix = await mkdtemp(path.join(os.tmpdir(), "pr-nginx-"));
  for (const d of ["body", "proxy", "fastcgi", "uwsgi", "scgi", "logs"]) await mkdir(path.join(prefix, d));
  await writeFile(path.join(prefix, "public-reviews.conf"), await testSiteConfig(opts));
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  await writeFile(
    path.join(prefix, "nginx.conf"),
    `${user}daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  # As Debian's stock /etc/nginx/nginx.conf has it, the http block deploy/nginx.conf is included in.
  gzip on;
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/public-reviews.conf;
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", path.join(prefix, "nginx.conf")], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${opts.port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error("nginx did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGQUIT");
        await new Promise((r) => child.once("exit", r));
      }
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
