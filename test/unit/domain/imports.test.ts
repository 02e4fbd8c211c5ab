import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOMAIN = join(__dirname, '../../../functions/domain');

/** Every module specifier a file imports or re-exports (static and dynamic). */
const specifiersOf = (source: string): string[] =>
  [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] as string);

describe('the domain is pure', () => {
  it('imports nothing outside functions/domain but Node built-ins', () => {
    const outside = readdirSync(DOMAIN)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        specifiersOf(readFileSync(join(DOMAIN, file), 'utf8'))
          .filter((spec) => !spec.startsWith('./') && !spec.startsWith('#domain/') && !spec.startsWith('node:'))
          .map((spec) => `${file} → ${spec}`),
      );
    expect(outside).toEqual([]);
  });
});
