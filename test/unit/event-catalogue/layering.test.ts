import { describe, expect, it } from 'vitest';
import { folderImports } from '../../support/imports';

/** Every pair of folders of functions/ that import each other, directly or through others. */
function folderCycles(graph: Map<string, Set<string>>): string[] {
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    if (seen.has(from)) return false;
    seen.add(from);
    return [...(graph.get(from) ?? [])].some((next) => next === to || reaches(next, to, seen));
  };
  const folders = [...graph.keys()].sort();
  return folders.flatMap((a) =>
    folders.filter((b) => a < b && reaches(a, b) && reaches(b, a)).map((b) => `${a} ↔ ${b}`),
  );
}

describe('areas meet through the event catalogue', () => {
  const graph = folderImports();

  it('no two folders of functions/ import each other, directly or around a loop', () => {
    expect(folderCycles(graph)).toEqual([]);
  });

  it('events/ and webhooks/ read the event catalogue, never the areas that emit events', () => {
    for (const reader of ['events', 'webhooks']) {
      const emitters = [...(graph.get(reader) ?? [])].filter((to) => to === 'persons' || to === 'verify-accounts');
      expect({ reader, emitters }).toEqual({ reader, emitters: [] });
    }
  });

  it('the emitting areas know nothing of the catalogue, the event log or webhooks', () => {
    for (const area of ['persons', 'verify-accounts']) {
      const readers = [...(graph.get(area) ?? [])].filter((to) =>
        ['event-catalogue', 'events', 'webhooks', 'pipeline'].includes(to),
      );
      expect({ area, readers }).toEqual({ area, readers: [] });
    }
  });
});
