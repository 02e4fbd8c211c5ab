import { describe, expect, it } from 'vitest';
import { isValidRoutingNumber } from '#domain/routing-number';

describe('ABA routing number checksum', () => {
  it.each(['021000021', '011000015', '121000358', '026009593', '322271627'])(
    'accepts the real routing number %s',
    (n) => {
      expect(isValidRoutingNumber(n)).toBe(true);
    },
  );

  it('rejects a routing number whose checksum fails', () => {
    expect(isValidRoutingNumber('021000022')).toBe(false);
  });

  it('rejects every single-digit change of a valid number', () => {
    const valid = '021000021';
    for (let i = 0; i < 9; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i]) continue;
        const changed = `${valid.slice(0, i)}${d}${valid.slice(i + 1)}`;
        expect(isValidRoutingNumber(changed), changed).toBe(false);
      }
    }
  });

  it.each(['02100002', '0210000211', '02100002a', ' 021000021', ''])('rejects %j, which is not nine digits', (n) => {
    expect(isValidRoutingNumber(n)).toBe(false);
  });
});
