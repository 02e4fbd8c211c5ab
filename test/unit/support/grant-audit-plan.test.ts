import { describe, expect, it } from 'vitest';
import {
  cheapestCover,
  filesFor,
  filesReaching,
  ownedBy,
  runStages,
  type Stage,
  type StageRun,
} from '#test/support/grant-audit-plan';
import type { GrantUseIndex, IndexedFile } from '#test/support/grant-use-index';

const unitFile = (ms: number, uses: string[]): IndexedFile => ({ project: 'unit', ms, at: 0, uses });
const integrationFile = (ms: number, uses: string[]): IndexedFile => ({ project: 'integration', ms, at: 0, uses });

const GET = 'GetPerson: GetItem on T#*';
const QUEUE = 'GetPerson: sends to queue identification';
const FIELD = 'GetPerson: uses the field-key';

const INDEX: GrantUseIndex = {
  'test/unit/persons/get.test.ts': unitFile(80, [GET, 'shared: GetItem on CLIENT#*']),
  'test/unit/shared/http/cross-cutting.test.ts': unitFile(300, ['CreatePerson: PutItem on T#*']),
  'test/integration/persons/lifecycle.test.ts': integrationFile(23_000, [GET, QUEUE, FIELD]),
  'test/integration/persons/persons.test.ts': integrationFile(5_000, [GET, QUEUE]),
  'test/integration/pii/never-leaks.test.ts': integrationFile(40_000, [GET, QUEUE, FIELD]),
  'test/integration/verify-accounts/list.test.ts': integrationFile(1_000, [
    'ListVerifyAccounts: Query on index byTenant',
  ]),
};

const known = { index: INDEX, importers: [], changed: [] };

describe('a row’s own permissions', () => {
  it('are those the recorders name after its id, not the shares many rows hold nor a row whose id it starts', () => {
    const own = ownedBy(['GetPerson']);
    expect([GET, 'shared: GetItem on CLIENT#*', 'GetPersons: GetItem on T#*'].filter(own)).toEqual([GET]);
  });
});

describe('the cheapest cover', () => {
  it('takes the file that used the most still wanted per millisecond, until every permission any file used is covered', () => {
    expect(cheapestCover(new Set([GET, QUEUE, FIELD]), INDEX, 'integration')).toEqual([
      'test/integration/persons/persons.test.ts',
      'test/integration/persons/lifecycle.test.ts',
    ]);
  });

  it('leaves out what no file of the project used, and files of the other project', () => {
    expect(cheapestCover(new Set([GET, 'GetPerson: never used']), INDEX, 'unit')).toEqual([
      'test/unit/persons/get.test.ts',
    ]);
    expect(cheapestCover(new Set(['GetPerson: never used']), INDEX, 'integration')).toEqual([]);
  });
});

describe('the files of each stage', () => {
  it('are none at any stage once every permission has been found in use', () => {
    for (const stage of ['unit', 'integration', 'earlier users', 'every file'] as Stage[])
      expect(filesFor(stage, { ...known, remaining: new Set(), ran: new Set() })).toEqual([]);
  });

  it('are every file, at the last stage, whenever a permission is left: nothing is called unused before that', () => {
    expect(filesFor('every file', { ...known, remaining: new Set([FIELD]), ran: new Set(Object.keys(INDEX)) })).toBe(
      'all',
    );
  });

  it('unit: the unit files that used the permissions, those importing the handler, and unit files changed', () => {
    const files = filesFor('unit', {
      ...known,
      importers: ['test/unit/persons/get-importer.test.ts'],
      changed: ['test/unit/persons/new.test.ts', 'test/integration/persons/new.test.ts'],
      remaining: new Set([GET]),
      ran: new Set(),
    });
    expect(files).toEqual([
      'test/unit/persons/get-importer.test.ts',
      'test/unit/persons/get.test.ts',
      'test/unit/persons/new.test.ts',
    ]);
  });

  it('integration: the fewest files that used what is left, and integration files changed, none run before', () => {
    const files = filesFor('integration', {
      ...known,
      changed: ['test/integration/persons/new.test.ts'],
      remaining: new Set([FIELD]),
      ran: new Set(['test/integration/persons/persons.test.ts']),
    });
    expect(files).toEqual(['test/integration/persons/lifecycle.test.ts', 'test/integration/persons/new.test.ts']);
  });

  it('earlier users: every file not yet run that ever used what is left', () => {
    const files = filesFor('earlier users', {
      ...known,
      remaining: new Set([FIELD]),
      ran: new Set(['test/integration/persons/lifecycle.test.ts']),
    });
    expect(files).toEqual(['test/integration/pii/never-leaks.test.ts']);
  });
});

/** A stand-in for vitest: each file uses what `uses` says it does now (not what the index remembers). */
function fakeRuns(uses: Record<string, string[]>, failing: string[] = []) {
  const stages: { stage: Stage; files: readonly string[] | 'all' }[] = [];
  const run = (stage: Stage, files: readonly string[] | 'all'): StageRun => {
    stages.push({ stage, files });
    const ran = files === 'all' ? Object.keys(uses) : files;
    return {
      passed: !ran.some((file) => failing.includes(file)),
      files: ran,
      uses: ran.flatMap((file) => uses[file] ?? []),
    };
  };
  return { run, stages };
}

const NOW: Record<string, string[]> = {
  'test/unit/persons/get.test.ts': [GET],
  'test/unit/shared/http/cross-cutting.test.ts': [],
  'test/integration/persons/lifecycle.test.ts': [GET, QUEUE, FIELD],
  'test/integration/persons/persons.test.ts': [GET, QUEUE],
  'test/integration/pii/never-leaks.test.ts': [GET, QUEUE, FIELD],
  'test/integration/verify-accounts/list.test.ts': [],
};

describe('the stages, run', () => {
  it('stop as soon as every permission is found in use, running only the files likely to use them', () => {
    const { run, stages } = fakeRuns(NOW);
    const outcome = runStages({ ...known, wanted: new Set([GET, QUEUE, FIELD]), quick: false, run });

    expect(outcome).toMatchObject({ end: 'answered', left: [] });
    expect(stages).toEqual([
      { stage: 'unit', files: ['test/unit/persons/get.test.ts'] },
      {
        stage: 'integration',
        files: ['test/integration/persons/lifecycle.test.ts', 'test/integration/persons/persons.test.ts'],
      },
    ]);
  });

  it('run every file before leaving a permission unused, when the files that used it no longer do', () => {
    const now = { ...NOW, 'test/integration/persons/lifecycle.test.ts': [GET, QUEUE] };
    const { run, stages } = fakeRuns({ ...now, 'test/integration/pii/never-leaks.test.ts': [GET] });
    const outcome = runStages({ ...known, wanted: new Set([GET, QUEUE, FIELD]), quick: false, run });

    expect(outcome).toMatchObject({ end: 'answered', left: [FIELD] });
    expect(stages.map(({ stage }) => stage)).toEqual(['unit', 'integration', 'earlier users', 'every file']);
    expect(stages.at(-1)?.files).toBe('all');
  });

  it('find a permission in use in a file the index never saw use it: no false alarm from an old index', () => {
    const { run } = fakeRuns({
      ...NOW,
      'test/integration/verify-accounts/list.test.ts': ['GetPerson: crosses tenants'],
    });
    const outcome = runStages({
      ...known,
      wanted: new Set([GET, 'GetPerson: crosses tenants']),
      quick: false,
      run,
    });

    expect(outcome).toMatchObject({ end: 'answered', left: [] });
  });

  it('with --quick, stop before every file and leave what is left unconfirmed', () => {
    const { run, stages } = fakeRuns({ ...NOW, 'test/integration/pii/never-leaks.test.ts': [GET] });
    const outcome = runStages({
      ...known,
      wanted: new Set([GET, 'GetPerson: never used']),
      quick: true,
      run,
    });

    expect(outcome).toMatchObject({ end: 'quick', left: ['GetPerson: never used'] });
    expect(stages.map(({ stage }) => stage)).not.toContain('every file');
  });

  it('give no answer when a test fails: a failing test may stop before it sends what the row grants', () => {
    const { run, stages } = fakeRuns(NOW, ['test/unit/persons/get.test.ts']);
    const outcome = runStages({ ...known, wanted: new Set([GET, QUEUE]), quick: false, run });

    expect(outcome.end).toBe('failed');
    expect(stages).toHaveLength(1);
  });

  it('run nothing for a row that grants nothing of its own', () => {
    const { run, stages } = fakeRuns(NOW);
    expect(runStages({ ...known, wanted: new Set(), quick: false, run })).toMatchObject({ end: 'answered', left: [] });
    expect(stages).toEqual([]);
  });
});

describe('files whose imports reach a handler', () => {
  const edges = new Map<string, Set<string>>([
    ['test/unit/a.test.ts', new Set(['test/support/harness.ts', 'functions/persons/handlers/get.ts'])],
    ['test/unit/b.test.ts', new Set(['test/unit/helpers.ts'])],
    ['test/unit/helpers.ts', new Set(['test/unit/cycle.ts'])],
    ['test/unit/cycle.ts', new Set(['test/unit/helpers.ts', 'functions/persons/handlers/get.ts'])],
    ['test/unit/c.test.ts', new Set(['test/support/harness.ts'])],
    ['test/support/harness.ts', new Set(['functions/shared/http/handler.ts'])],
  ]);

  it('are those that import it, directly or through other modules, cycles included', () => {
    expect(
      filesReaching(edges, new Set(['functions/persons/handlers/get.ts']), [
        'test/unit/a.test.ts',
        'test/unit/b.test.ts',
        'test/unit/c.test.ts',
      ]),
    ).toEqual(['test/unit/a.test.ts', 'test/unit/b.test.ts']);
  });
});
