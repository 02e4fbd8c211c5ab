import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer } from 'increase/resources/ach-transfers';

// The Increase fake's state file (`stateFile`, `npm start` with `DATA_DIR`): every object
// and idempotency key, so that a restarted fake still knows what it sent.

/** Everything the fake keeps across restarts. */
export interface FakeIncreaseState {
  sequence: number;
  prenotifications: ACHPrenotification[];
  transfers: ACHTransfer[];
  byKey: [string, { id: string; body: string }][];
  createdPerKey: [string, number][];
}

/** The state in `file`; undefined when there is none yet. */
export function readFakeIncreaseState(file: string): FakeIncreaseState | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as FakeIncreaseState;
}

/** Writes the state whole or not at all: a crash mid-write leaves the previous state. */
export function writeFakeIncreaseState(file: string, state: FakeIncreaseState): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}
