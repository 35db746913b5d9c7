/**
 * What every bench section returns: figures that are ratios or distributions taken in the same
 * run (so they hold on a noisy machine), each with its target (docs/benchmarks.md) when it has one.
 * Targets are reported, never asserted: a missed target is a finding, not a crash.
 */

export const SECTIONS = ["build", "search", "conditional", "mcp", "hub"] as const;
export type Section = (typeof SECTIONS)[number];

export interface Target {
  op: "<=" | ">=";
  value: number;
}

export type Unit = "ratio" | "ms" | "MiB" | "KiB" | "s";

export interface Figure {
  section: Section;
  name: string;
  value: number;
  unit: Unit;
  target?: Target;
  /** The measurements behind the figure, so a reader can see what was divided by what. */
  detail: string;
}

/** A section that threw: reported, and the run exits non-zero. */
export interface Failure {
  section: Section;
  message: string;
}

export function meets(f: Figure): boolean | undefined {
  if (!f.target) return undefined;
  return f.target.op === "<=" ? f.value <= f.target.value : f.value >= f.target.value;
}

export const MiB = 1024 * 1024;

/** `10000` → `10,000`: sizes in figure names read as the issue writes them. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** A duration in milliseconds as the report prints seconds: `1234` → `1.2 s`. */
export function seconds(ms: number): string {
  return format(ms / 1000, "s");
}

export function format(value: number, unit: Unit): string {
  switch (unit) {
    case "ratio":
      return value.toFixed(2);
    case "ms":
      return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
    case "s":
      return `${value.toFixed(1)} s`;
    case "MiB":
      return `${Math.round(value)} MiB`;
    case "KiB":
      return `${value.toFixed(1)} KiB`;
  }
}
