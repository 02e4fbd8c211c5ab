import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalOutbox } from '#lib/local/pipeline/local-outbox';

describe('local outbox', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes each email as a readable file, logs its path and keeps it in memory', async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    const logged: string[] = [];
    const outbox = new LocalOutbox(join(dir, 'outbox'), (level, message) => logged.push(`${level} ${message}`));
    await outbox.send({ to: 'jane@example.com', subject: 'Hello\nthere', text: 'Line 1\nLine 2' });
    const [email] = outbox.messages;
    expect(email).toMatchObject({ to: 'jane@example.com', subject: 'Hello\nthere' });
    const content = await readFile(email.path, 'utf8');
    const [headers, body] = content.split('\n\n');
    expect(headers).toMatch(
      /^To: jane@example\.com\nSubject: Hello there\nDate: \w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT$/,
    );
    expect(body).toBe('Line 1\nLine 2\n');
    expect(logged).toEqual([`info email written to the outbox: ${email.path}`]);
  });
});
