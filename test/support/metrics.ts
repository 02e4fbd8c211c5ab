import { afterEach, beforeEach } from 'vitest';
import { setMetricsSink } from '#shared/metrics';

/** One CloudWatch Embedded Metric Format line, as Powertools serializes it. */
export interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}

/**
 * Captures the EMF lines the code under test writes (each flush is one line). Call once
 * at the top of a test file; the returned array is emptied before each test.
 */
export function captureMetrics(): EmfLine[] {
  const lines: EmfLine[] = [];
  beforeEach(() => {
    lines.length = 0;
    setMetricsSink((line) => lines.push(JSON.parse(line)));
  });
  afterEach(() => setMetricsSink(undefined));
  return lines;
}

/** The values written for a metric, across lines (Powertools writes a repeated metric as an array). */
export function valuesOf(lines: EmfLine[], name: string): number[] {
  return lines.flatMap((line) => {
    const declared = line._aws.CloudWatchMetrics.some((group) => group.Metrics.some((metric) => metric.Name === name));
    if (!declared) return [];
    const value = line[name];
    return Array.isArray(value) ? (value as number[]) : [value as number];
  });
}

/** A Count metric's total across lines. */
export const countOf = (lines: EmfLine[], name: string): number =>
  valuesOf(lines, name).reduce((sum, value) => sum + value, 0);

/** The line that declares a metric (the first one), to read its unit, dimensions and metadata. */
export function lineWith(lines: EmfLine[], name: string): EmfLine | undefined {
  return lines.find((line) => valuesOf([line], name).length > 0);
}
