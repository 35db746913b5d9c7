/** The part of autocannon 8's programmatic API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    amount?: number;
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      /** Called before each send of this request; what it returns is sent instead. */
      setupRequest?: (req: { path?: string }) => { path?: string; headers?: Record<string, string>; method?: string };
    }[];
    headers?: Record<string, string>;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    latency: Histogram;
    requests: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }
  /** Emits `start` once every connection's requests are built, just before the first is sent. */
  interface Tracker {
    on(event: "start", listener: () => void): Tracker;
  }
  function autocannon(opts: Options): Promise<Result>;
  function autocannon(opts: Options, cb: (err: Error | null, result: Result) => void): Tracker;
  export default autocannon;
}
