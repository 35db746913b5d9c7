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
    requests?: { method?: string; path?: string; headers?: Record<string, string> }[];
    headers?: Record<string, string>;
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    latency: Histogram;
    requests: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
