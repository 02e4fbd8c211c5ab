import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#lib/repo-root';
import {
  QUALITY_DOC,
  QUALITY_JSON,
  type QualityFigures,
  qualityFiguresBlock,
  renderQualityFigures,
} from '#test/bench/screening-quality-figures';
import { VARIANT_CLASSES } from '#test/support/screening-variants';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const figures = JSON.parse(read(QUALITY_JSON)) as QualityFigures;

describe('the screening quality figures (docs/testing.md#screening-quality)', () => {
  it('are shown in docs/testing.md exactly as docs/bench/screening-quality.json renders them', () => {
    // `npm run screening:quality` writes both; edit neither by hand.
    expect(qualityFiguresBlock(read(QUALITY_DOC)), `run npm run screening:quality`).toBe(renderQualityFigures(figures));
  });

  it('cover every variant class at 400 persons, each caught at 99 % or more, and flag few who are not listed', () => {
    expect(Object.keys(figures.recall_percent), 'run npm run screening:quality').toEqual([...VARIANT_CLASSES]);
    expect(figures.per_class).toBe(400);
    for (const share of Object.values(figures.recall_percent)) {
      expect(share.persons).toBe(400);
      expect(Math.min(share.with_date, share.without_date)).toBeGreaterThanOrEqual(99);
    }
    expect(figures.common_us_names_flagged_percent.with_date).toBeLessThanOrEqual(0.5);
    const others = figures.other_given_names_taken_percent;
    expect(Math.max(others.with_date, others.without_date)).toBeLessThanOrEqual(5);
  });
});
