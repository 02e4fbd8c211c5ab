import { describe, expect, it } from 'vitest';
import { MAX_STORED_ATTEMPTS, SLOT_TRIES, slotCandidates } from '#domain/attempt-slots';

const at = (second: number) => `2026-01-16T15:00:${String(second).padStart(2, '0')}.000Z`;

describe('attempt slots', () => {
  it('offers only free slots while the event has fewer than the cap', () => {
    const held = [0, 1, 2].map((slot) => ({ slot, at: at(slot) }));
    const candidates = slotCandidates(held, 'config-a#1');
    expect(candidates).toHaveLength(SLOT_TRIES);
    expect(candidates.every((slot) => slot >= 3 && slot < MAX_STORED_ATTEMPTS)).toBe(true);
  });

  it('offers the last free slots before any held one, whatever the seed', () => {
    const held = Array.from({ length: MAX_STORED_ATTEMPTS - 2 }, (_, i) => ({ slot: i + 2, at: at(i % 60) }));
    for (const seed of ['a', 'b', 'c', 'd', 'e']) expect(slotCandidates(held, seed).slice(0, 2).sort()).toEqual([0, 1]);
  });

  it('once every slot is held, offers the slots of the oldest attempts, oldest first', () => {
    const held = Array.from({ length: MAX_STORED_ATTEMPTS }, (_, slot) => ({ slot, at: at(59 - (slot % 60)) }));
    const oldest = [...held].sort((a, b) => (a.at === b.at ? a.slot - b.slot : a.at < b.at ? -1 : 1));
    for (const seed of ['a', 'b']) {
      expect(slotCandidates(held, seed)).toEqual(oldest.slice(0, SLOT_TRIES).map((h) => h.slot));
    }
  });

  it('offers distinct slots, so a writer goes on past every slot another writer took', () => {
    const candidates = slotCandidates([], 'seed');
    expect(new Set(candidates).size).toBe(SLOT_TRIES);
  });

  it('starts concurrent writers of one event at different slots', () => {
    const firsts = new Set(
      Array.from({ length: 10 }, (_, i) => slotCandidates([], `configuration-${i}#1#`)[0] as number),
    );
    expect(firsts.size).toBeGreaterThan(4);
  });

  it('never offers a slot outside the cap', () => {
    const held = [{ slot: 250, at: at(1) }];
    expect(slotCandidates(held, 'x').every((slot) => slot < MAX_STORED_ATTEMPTS)).toBe(true);
  });
});
