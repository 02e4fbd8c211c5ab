import { type PersonWords, personWords } from './name-score';
import {
  alikeAtLeast,
  blockKeys,
  lettersAlikeAtLeast,
  type Spelling,
  spelling,
  spellingBlockKeys,
  spellingOf,
} from './name-similarity';
import {
  DEFAULT_SCREENING_THRESHOLD,
  type Hit,
  type ListedPerson,
  MOST_DATE_POINTS,
  type PreparedListing,
  prepareListing,
  type ScreenedPerson,
  scoreListing,
} from './screening-match';

// The lists held in memory and searched without a walk (docs/decisions.md#screening): every
// word of every listed name (and every two adjacent words written together) is filed under
// its phonetic blocks (`blockKeys`) and the blocks its other spellings share
// (`spellingBlockKeys`). A person's needed words (given name, surname) are compared with
// the words of their blocks only; the listings holding a word close enough to reach the
// threshold are scored whole (`scoreListing`). A listing the search does not pick cannot
// reach the threshold unless both needed words of the person fall outside the blocks of
// every word they resemble.

/** A word of the lists: the listings that use it, and its spelling reduced. */
interface Filed {
  readonly users: Set<number>;
  readonly spelling: Spelling;
}

/** Words of the lists under one block key. */
type Block = Map<string, Filed>;

export class ScreeningIndex {
  private readonly prepared: PreparedListing[];
  private readonly blocks = new Map<string, Block>();
  private readonly filed = new Map<string, Filed>();

  constructor(
    listings: readonly ListedPerson[],
    private readonly threshold = DEFAULT_SCREENING_THRESHOLD,
  ) {
    this.prepared = listings.map(prepareListing);
    this.prepared.forEach(({ names }, index) => {
      for (const { tokens } of names) {
        for (const word of [...tokens.map((token) => token.text), ...joined(tokens.map((token) => token.text))]) {
          this.file(word, index);
        }
      }
    });
  }

  get size(): number {
    return this.prepared.length;
  }

  /** Every listing the person scores at or above the threshold against, best first. */
  screen(person: ScreenedPerson): Hit[] {
    const words = personWords(person);
    const hits: Hit[] = [];
    for (const index of this.candidates(words)) {
      const prepared = this.prepared[index];
      if (!prepared) continue;
      const hit = scoreListing(person, words, prepared);
      if (hit.score >= this.threshold) hits.push(hit);
    }
    return hits.sort((a, b) => b.score - a.score || (a.entryId < b.entryId ? -1 : 1));
  }

  private file(word: string, index: number): void {
    const filed = this.filed.get(word) ?? { users: new Set<number>(), spelling: spelling(word) };
    this.filed.set(word, filed);
    filed.users.add(index);
    if (filed.users.size > 1) return;
    for (const key of [...blockKeys(word), ...spellingBlockKeys(filed.spelling)]) {
      const block = this.blocks.get(key) ?? new Map<string, Filed>();
      this.blocks.set(key, block);
      block.set(word, filed);
    }
  }

  /**
   * The listings where every needed word of the person (alone or joined with a neighbour
   * of its own part of the name) resembles some word of theirs enough, each needed word
   * looked up in its blocks only.
   */
  private candidates(words: PersonWords): number[] {
    const minimum = neededWordMinimum(this.threshold);
    let found: Set<number> | undefined;
    for (const forms of neededForms(words)) {
      const here = new Set<number>();
      for (const form of forms) {
        const spelled = spellingOf(form);
        const compared = new Set<string>();
        // The words a spelling relates to the form first: the others can only be alike by their letters.
        for (const key of spellingBlockKeys(spelled)) {
          for (const [word, filed] of this.blocks.get(key) ?? []) {
            if (compared.has(word) || (found !== undefined && !meets(filed.users, found))) continue;
            compared.add(word);
            if (alikeAtLeast(form, word, minimum, spelled, filed.spelling)) addAll(here, filed.users);
          }
        }
        for (const key of blockKeys(form)) {
          for (const [word, filed] of this.blocks.get(key) ?? []) {
            if (compared.has(word) || (found !== undefined && !meets(filed.users, found))) continue;
            compared.add(word);
            if (lettersAlikeAtLeast(form, word, minimum, spelled, filed.spelling)) addAll(here, filed.users);
          }
        }
      }
      found = here;
    }
    return [...(found ?? [])];
  }
}

function addAll(to: Set<number>, from: ReadonlySet<number>): void {
  for (const member of from) to.add(member);
}

/** Whether two sets share a member. */
function meets(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  for (const member of a) if (b.has(member)) return true;
  return false;
}

/** Each needed word of a person, with its neighbours in the same part of the name joined to it. */
function neededForms(words: PersonWords): string[][] {
  return words.tokens.flatMap((token, i) => {
    if (!words.core[i]) return [];
    const part = words.part[i];
    const neighbour = (j: number) => (words.part[j] === part ? words.tokens[j]?.text : undefined);
    const before = neighbour(i - 1);
    const after = neighbour(i + 1);
    return [[token.text, ...(before ? [`${before}${token.text}`] : []), ...(after ? [`${token.text}${after}`] : [])]];
  });
}

/** Two and three adjacent words written together ("al" "tikriti" → "altikriti"). */
const joined = (words: readonly string[]): string[] => [
  ...words.slice(1).map((word, i) => `${words[i]}${word}`),
  ...words.slice(2).map((word, i) => `${words[i]}${words[i + 1]}${word}`),
];

/**
 * The similarity below which a needed word cannot be part of a hit: a name scores at most
 * its weakest needed pair, and the dates add at most `MOST_DATE_POINTS`.
 */
export const neededWordMinimum = (threshold: number): number => Math.max(0, (threshold - MOST_DATE_POINTS) / 100);
