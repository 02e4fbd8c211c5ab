import { describe, expect, it } from 'vitest';
import { MAX_PAGE_OFFSET, MAX_PAGE_SIZE, pageWindow } from '#domain/pagination';

describe('page-number pagination', () => {
  it('page 0 starts at the first item', () => {
    expect(pageWindow(0, 100)).toEqual({ skip: 0, take: 100 });
  });

  it('page index holds items index*size to index*size+size-1', () => {
    expect(pageWindow(3, 25)).toEqual({ skip: 75, take: 25 });
  });

  it('size 0 takes nothing whatever the index', () => {
    expect(pageWindow(7, 0)).toEqual({ skip: 0, take: 0 });
  });

  it(`refuses sizes above ${MAX_PAGE_SIZE} and negative or fractional values`, () => {
    expect(() => pageWindow(0, MAX_PAGE_SIZE + 1)).toThrow(RangeError);
    expect(() => pageWindow(-1, 10)).toThrow(RangeError);
    expect(() => pageWindow(0, -1)).toThrow(RangeError);
    expect(() => pageWindow(1.5, 10)).toThrow(RangeError);
  });

  it(`starts a page at most ${MAX_PAGE_OFFSET} entries into the list: index × size above it is refused`, () => {
    expect(pageWindow(20, 500)).toEqual({ skip: 10_000, take: 500 });
    expect(pageWindow(MAX_PAGE_OFFSET, 1)).toEqual({ skip: MAX_PAGE_OFFSET, take: 1 });
    expect(() => pageWindow(21, 500)).toThrow(RangeError);
    expect(() => pageWindow(10_000_000, 500)).toThrow(RangeError);
    expect(() => pageWindow(MAX_PAGE_OFFSET + 1, 0)).toThrow(RangeError);
  });
});
