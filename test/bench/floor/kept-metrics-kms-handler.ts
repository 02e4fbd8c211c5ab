import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { KMSClient } from '@aws-sdk/client-kms';
import { keptFloorHandler } from './kept';

// A kept floor (./kept.ts) with Powertools' Metrics, the KMS client.

const metrics = new Metrics({ namespace: 'BenchKeptFloor', serviceName: 'bench-kept-floor' });
export const kms = new KMSClient({});
export const handler = keptFloorHandler(() => {
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
});
