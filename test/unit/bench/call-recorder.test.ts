import { describe, expect, it } from 'vitest';
import { FieldCipher } from '#shared/field-cipher/field-cipher';
import { bareReplay } from '#test/bench/bare-replay';
import { CallRecorder } from '#test/bench/call-recorder';

const KEY = Buffer.alloc(32, 7);
const OWNER = { tenant: 'tenant-a', record: 'account-1' };
const ITEM = { id: 'account-1', account_number: '73120455012' };

describe("the overhead bench's field cipher", () => {
  it('records each seal and open the service asks for, and still does them', () => {
    const recorder = new CallRecorder();
    const cipher = recorder.fieldCipher(new FieldCipher(KEY));
    recorder.start();

    const sealed = cipher.sealWithin(ITEM, OWNER, 'verify_account');
    const opened = cipher.openWithin(sealed, OWNER, 'verify_account');

    expect(sealed.account_number).not.toBe(ITEM.account_number);
    expect(opened).toEqual(ITEM);
    expect(recorder.stop().map((call) => call.kind === 'field' && call.op)).toEqual(['sealWithin', 'openWithin']);
  });

  it('is replayed on the bare side, which opens what the service opened', async () => {
    const recorder = new CallRecorder();
    const cipher = recorder.fieldCipher(new FieldCipher(KEY));
    const sealed = cipher.sealWithin(ITEM, OWNER, 'verify_account');
    recorder.start();
    cipher.openWithin(sealed, OWNER, 'verify_account');
    const calls = recorder.stop();

    const opens: unknown[] = [];
    const bare = new FieldCipher(KEY);
    const spy = Object.assign(Object.create(bare), {
      openWithin: (value: unknown, owner: typeof OWNER, root: string) => {
        const result = bare.openWithin(value, owner, root);
        opens.push(result);
        return result;
      },
    });
    await bareReplay(calls, { fieldCipher: spy } as never, 'from', 'to')();

    expect(opens).toEqual([ITEM]);
  });
});
