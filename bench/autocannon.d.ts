// autocannon ships no types: the part of its programmatic API the benchmarks use.
declare module 'autocannon' {
  export interface RequestData {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  export interface RequestSpec extends RequestData {
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData;
  }

  export interface Options extends RequestData {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    title?: string;
    requests?: RequestSpec[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
