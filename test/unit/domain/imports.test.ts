import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, sourceFiles, specifiersOf } from '../../support/imports';

describe('the domain is pure', () => {
  it('imports nothing outside functions/domain but Node built-ins', () => {
    const outside = sourceFiles(join(FUNCTIONS, 'domain')).flatMap((file) =>
      specifiersOf(readFileSync(file, 'utf8'))
        .filter((spec) => !spec.startsWith('./') && !spec.startsWith('#domain/') && !spec.startsWith('node:'))
        .map((spec) => `${relative(FUNCTIONS, file)} → ${spec}`),
    );
    expect(outside).toEqual([]);
  });
});
