import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { ENV, optionalEnv, serviceName } from './config';
import { type CountMetric, DEFAULT_NAMESPACE, type LatencyMetric } from './metric-names';

export interface Metrics {
  count(name: CountMetric, value?: number): void;
  latency(name: LatencyMetric, milliseconds: number): void;
  /** Searchable context on this invocation's metrics line (e.g. an outcome); not a dimension. */
  metadata(key: string, value: string): void;
}

type Sink = (emfLine: string) => void;
let sink: Sink | undefined;

/**
 * Tests capture the EMF lines: with a sink set, every flush with metrics hands the line
 * Powertools serialized to the sink (whatever the environment), instead of stdout.
 */
export function setMetricsSink(next: Sink | undefined): void {
  sink = next;
}

/**
 * Powertools' Metrics with three house rules, all in `publishStoredMetrics` (which every
 * flush, automatic ones included, goes through):
 * - nothing stored, nothing written: no "No application metrics to publish" warning from
 *   the many invocations that count nothing (and no `throwOnEmptyMetrics`);
 * - the test sink, when set, receives the EMF line;
 * - EMF lines are written only inside Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set) unless
 *   `POWERTOOLS_METRICS_DISABLED` says otherwise: the local runtime and the tests would
 *   otherwise print a JSON blob after every request. Setting
 *   `POWERTOOLS_METRICS_DISABLED=false` shows them locally; `true` (or `POWERTOOLS_DEV`)
 *   silences them in Lambda too, as Powertools documents.
 */
class ServiceMetrics extends PowertoolsMetrics {
  readonly #silent =
    optionalEnv(ENV.metricsDisabled) === undefined && optionalEnv(ENV.lambdaFunctionName) === undefined;

  override publishStoredMetrics(): this {
    if (!this.hasStoredMetrics()) return this;
    if (!sink && !this.#silent) return super.publishStoredMetrics();
    try {
      if (sink) sink(JSON.stringify(this.serializeMetrics()));
    } finally {
      this.clearMetrics();
      this.clearDimensions();
      this.clearMetadata();
    }
    return this;
  }
}

let instance: ServiceMetrics | undefined;

/** One Metrics per process, made on first use, after the runtime has set the environment. */
function powertools(): ServiceMetrics {
  instance ??= new ServiceMetrics({
    namespace: optionalEnv(ENV.metricsNamespace) ?? DEFAULT_NAMESPACE,
    serviceName: serviceName(),
  });
  return instance;
}

const port: Metrics = {
  count: (name, value = 1) => void powertools().addMetric(name, MetricUnit.Count, value),
  latency: (name, milliseconds) => void powertools().addMetric(name, MetricUnit.Milliseconds, milliseconds),
  metadata: (key, value) => void powertools().addMetadata(key, value),
};

/** Where handlers and use cases count things; the metrics are written when the invocation (or message) ends. */
export const metrics = (): Metrics => port;

/**
 * Writes the metrics stored so far as one EMF line and forgets them. The invocation
 * wrapper calls it when a handler ends, however it ends; the queue worker after each
 * message, so a message's metadata is its own.
 */
export function flushMetrics(): void {
  instance?.publishStoredMetrics();
}
