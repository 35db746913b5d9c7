import { SECTIONS, type Section } from "./figures.ts";

/**
 * Sizes and durations of a run. `full` is what docs/benchmarks.md specifies and takes minutes on
 * two cores; `smoke` runs every code path with tiny sizes in well under two minutes, so CI can tell
 * that the benchmark still works (its figures mean nothing).
 */
export interface Profile {
  mode: "full" | "smoke";
  /** Reviews in the small, middle and large builds (100, 10,000, 100,000). */
  small: number;
  middle: number;
  large: number;
  /** Builds of the small size; the fastest is the denominator, as a lone short build is the noisiest. */
  smallBuilds: number;
  connections: number;
  warmupS: number;
  durationS: number;
  /** Rounds through the query mix, per client, in the sequential MCP-vs-HTTP comparison. */
  mcpRounds: number;
  mcpSessions: number;
  subscribers: number;
}

export const PROFILES: Record<Profile["mode"], Profile> = {
  full: {
    mode: "full",
    small: 100,
    middle: 10_000,
    large: 100_000,
    smallBuilds: 2,
    connections: 50,
    warmupS: 2,
    durationS: 6,
    mcpRounds: 30,
    mcpSessions: 1000,
    subscribers: 1000,
  },
  smoke: {
    mode: "smoke",
    small: 20,
    middle: 200,
    large: 400,
    smallBuilds: 1,
    connections: 10,
    warmupS: 0.3,
    durationS: 1,
    mcpRounds: 2,
    mcpSessions: 20,
    subscribers: 10,
  },
};

export interface Options {
  profile: Profile;
  sections: Section[];
  json?: string;
  help: boolean;
}

export const USAGE = `Usage: npm run bench -- [--smoke] [--only SECTION[,SECTION]] [--json FILE]

Measures build, search, conditional GET, MCP and WebSub hub fan-out and prints a Markdown table.

  --smoke          tiny sizes and 1 s runs: checks that every bench still works (for CI)
  --only LIST      run only these sections: ${SECTIONS.join(", ")}
  --json FILE      also write the figures as JSON to FILE
  --help           show this text
`;

export class UsageError extends Error {
  override name = "UsageError";
}

export function parseArgs(argv: readonly string[]): Options {
  let mode: Profile["mode"] = "full";
  let sections: Section[] = [...SECTIONS];
  let json: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (name === "--smoke") mode = "smoke";
    else if (name === "--help" || name === "-h") help = true;
    else if (name === "--json") json = value();
    else if (name === "--only") {
      const list = value()
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = list.filter((s) => !(SECTIONS as readonly string[]).includes(s));
      if (bad.length > 0) {
        throw new UsageError(
          `--only: unknown section ${JSON.stringify(bad[0])}; valid sections are ${SECTIONS.join(", ")}`,
        );
      }
      sections = SECTIONS.filter((s) => list.includes(s));
    } else throw new UsageError(`unknown argument ${JSON.stringify(arg)}; see --help`);
  }
  return { profile: PROFILES[mode], sections, json, help };
}
