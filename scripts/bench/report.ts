import { readFileSync } from "node:fs";
import os from "node:os";
import { type Failure, type Figure, format, MiB, meets } from "./figures.ts";

/** The machine a table was measured on: without it the absolute figures mean nothing. */
export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started: other work on the machine skews every figure. */
  loadAtStart: number;
}

export interface Report {
  mode: "full" | "smoke";
  startedAt: string;
  seconds: number;
  machine: Machine;
  figures: (Figure & { met?: boolean })[];
  failures: Failure[];
}

function cpuModel(): string {
  try {
    const m = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m);
    if (m?.[1]) return m[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? "unknown";
}

export function describeMachine(): Machine {
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round((os.totalmem() / MiB / 1024) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAtStart: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

export function makeReport(
  mode: Report["mode"],
  started: Date,
  machine: Machine,
  figures: Figure[],
  failures: Failure[],
): Report {
  return {
    mode,
    startedAt: started.toISOString(),
    seconds: Math.round((Date.now() - started.getTime()) / 100) / 10,
    machine,
    figures: figures.map((f) => ({ ...f, met: meets(f) })),
    failures,
  };
}

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The Markdown printed on stdout and added to the top of docs/benchmarks-log.md. */
export function renderMarkdown(r: Report): string {
  const m = r.machine;
  const lines = [
    `Benchmark (${r.mode}${r.mode === "smoke" ? ": tiny sizes and short runs, figures not comparable with the targets" : ""}), ${r.startedAt}, ${r.seconds} s`,
    "",
    `Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB RAM, ${m.os}, Node ${m.node}, load average ${m.loadAtStart} at start`,
    "",
    "| Section | Figure | Value | Target | Met | Measured |",
    "|---|---|---:|---|---|---|",
  ];
  for (const f of r.figures) {
    const target = f.target ? `${f.target.op === "<=" ? "≤" : "≥"} ${format(f.target.value, f.unit)}` : "—";
    const met = f.met === undefined ? "—" : f.met ? "yes" : "**no**";
    lines.push(
      `| ${f.section} | ${cell(f.name)} | ${format(f.value, f.unit)} | ${target} | ${met} | ${cell(f.detail)} |`,
    );
  }
  if (r.failures.length > 0) {
    lines.push("", "Sections that failed (no figures):", "");
    for (const f of r.failures) lines.push(`- ${f.section}: ${f.message.split("\n")[0]}`);
  }
  return `${lines.join("\n")}\n`;
}
