import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ListFileError } from '#domain/csv';
import { loadListsFolder } from '#functions/screening/load-lists';
import type { ListingRepository } from '#shared/db/screening/index';
import { setDependencies } from '#shared/dependencies';

/** The lists' repositories as fakes that note every write. */
function recordWrites() {
  const writes: string[] = [];
  setDependencies({
    screeningListings: {
      put: async (listing: { entryId: string }) => void writes.push(`listing ${listing.entryId}`),
      recordChange: async (changed: unknown[]) => void writes.push(`change of ${changed.length}`),
    } as unknown as ListingRepository,
  });
  return writes;
}
afterEach(() => setDependencies({ screeningListings: undefined }));

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lists-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const SDN = '1,"DOE, Jane","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,"DOB 01 Jan 1970"\n';

describe('loading a folder of list files', () => {
  it('writes each listing with its aliases, then records the change once', async () => {
    const writes = recordWrites();
    const dir = await folder({ 'sdn.csv': SDN, 'alt.csv': '1,7,"aka","DOE, Janet",-0-\n' });
    expect(await loadListsFolder(dir)).toEqual({ sanctions: 1, alerts: 0 });
    expect(writes).toEqual(['listing SDN-1', 'change of 1']);
  });

  it('writes nothing when one file is malformed, and names the file and the line', async () => {
    const writes = recordWrites();
    const dir = await folder({ 'sdn.csv': SDN, 'alt.csv': '1,7,"aka","DOE, Janet",-0-\n1,8,"aka"\n' });
    const loading = loadListsFolder(dir);
    await expect(loading).rejects.toThrow(ListFileError);
    await expect(loading).rejects.toThrow('alt.csv, line 2: expected 5 fields, found 3');
    expect(writes).toEqual([]);
  });

  it('refuses aliases without the list they belong to', async () => {
    recordWrites();
    await expect(loadListsFolder(await folder({ 'alt.csv': '1,7,"aka","DOE, Janet",-0-\n' }))).rejects.toThrow(
      'alt.csv and add.csv need the sdn.csv they belong to',
    );
  });
});
