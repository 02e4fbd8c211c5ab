import { type CsvRow, ListFileError, parseCsvRows } from './csv';
import { ofacDatesOfBirth } from './listed-dates';
import type { ListedPerson, ListedPersonName } from './screening-match';

// OFAC's published list files, read as they are (docs/api.md#screening): the SDN list
// (`sdn.csv`, its aliases `alt.csv`, its addresses `add.csv`) and the Consolidated
// Sanctions (non-SDN) list (`cons_prim.csv`, `cons_alt.csv`), which share the SDN files'
// columns. Only individuals are screened against (persons are people; entities, vessels and
// aircraft are not), each with every a.k.a., f.k.a. and n.k.a. name as one of its names.

/** One OFAC list as its files: the primary file is required, the others optional. */
export interface OfacFiles {
  /** The source's name in hits and errors: `SDN` or `CONS`. */
  readonly source: 'SDN' | 'CONS';
  readonly primary: { readonly name: string; readonly text: string };
  readonly aliases?: { readonly name: string; readonly text: string };
  readonly addresses?: { readonly name: string; readonly text: string };
}

// OFAC writes "-0- " where a field is empty.
const cell = (value = ''): string => (value.trim() === '-0-' ? '' : value.trim());

/** Columns of the primary files (no header): ent_num, SDN_Name, SDN_Type, …, Remarks. */
const PRIMARY = { columns: 12, entNum: 0, name: 1, type: 2, remarks: 11 } as const;
/** Columns of the alias files: ent_num, alt_num, alt_type, alt_name, alt_remarks. */
const ALIAS = { columns: 5, entNum: 0, altNum: 1, type: 2, name: 3 } as const;
/** Columns of the address file: ent_num, add_num, address, city, country, add_remarks. */
const ADDRESS = { columns: 6, entNum: 0, addNum: 1 } as const;

const ALIAS_KINDS = new Set(['aka', 'fka', 'nka']);
const ENT_NUM = /^\d+$/;

function rowsOf(file: { name: string; text: string }, columns: number): CsvRow[] {
  const rows = parseCsvRows(file.text, file.name);
  for (const row of rows) {
    if (row.cells.length !== columns) {
      throw new ListFileError(file.name, row.line, `expected ${columns} fields, found ${row.cells.length}`);
    }
    if (!ENT_NUM.test(cell(row.cells[0]))) {
      throw new ListFileError(file.name, row.line, 'the first field (ent_num) must be a number');
    }
  }
  return rows;
}

/**
 * The individuals of one OFAC list with their aliases and dates of birth. Throws a
 * `ListFileError` naming the file and line of the first malformed row (a wrong number of
 * fields, an ent_num that is no number, a nameless individual, an alias of an unknown
 * kind or of an ent_num the primary file lacks, an unclosed quote): a list that cannot be
 * read whole is not loaded at all. The address file is checked, not kept: screening
 * persons compares names and dates of birth.
 */
export function parseOfacList(files: OfacFiles): ListedPerson[] {
  const listed = new Map<string, ListedPerson & { names: ListedPersonName[] }>();
  const known = new Set<string>();
  for (const { cells, line } of rowsOf(files.primary, PRIMARY.columns)) {
    const entNum = cell(cells[PRIMARY.entNum]);
    if (known.has(entNum)) throw new ListFileError(files.primary.name, line, `ent_num ${entNum} appears twice`);
    known.add(entNum);
    if (cell(cells[PRIMARY.type]).toLowerCase() !== 'individual') continue;
    const name = cell(cells[PRIMARY.name]);
    if (!/\p{L}/u.test(name)) throw new ListFileError(files.primary.name, line, 'an individual without a name');
    listed.set(entNum, {
      list: 'sanctions',
      source: files.source,
      entryId: `${files.source}-${entNum}`,
      name,
      names: [{ name, kind: 'primary' }],
      datesOfBirth: ofacDatesOfBirth(cell(cells[PRIMARY.remarks])),
    });
  }
  if (files.aliases) {
    for (const { cells, line } of rowsOf(files.aliases, ALIAS.columns)) {
      const entNum = cell(cells[ALIAS.entNum]);
      const kind = cell(cells[ALIAS.type]).toLowerCase();
      const name = cell(cells[ALIAS.name]);
      if (!known.has(entNum)) throw new ListFileError(files.aliases.name, line, `ent_num ${entNum} is not listed`);
      if (!ALIAS_KINDS.has(kind)) throw new ListFileError(files.aliases.name, line, `unknown alias type "${kind}"`);
      // An entity's, vessel's or aircraft's alias: not a person's name.
      const person = listed.get(entNum);
      if (!person || !/\p{L}/u.test(name)) continue;
      person.names.push({ name, kind: kind as ListedPersonName['kind'], aliasId: cell(cells[ALIAS.altNum]) });
    }
  }
  if (files.addresses) {
    for (const { cells, line } of rowsOf(files.addresses, ADDRESS.columns)) {
      const entNum = cell(cells[ADDRESS.entNum]);
      if (!known.has(entNum)) throw new ListFileError(files.addresses.name, line, `ent_num ${entNum} is not listed`);
    }
  }
  return [...listed.values()];
}
