import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { keptFloorHandler } from './kept';

// A kept floor (./kept.ts) with Powertools' Metrics.

const metrics = new Metrics({ namespace: 'BenchKeptFloor', serviceName: 'bench-kept-floor' });
export const handler = keptFloorHandler(() => {
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
});
