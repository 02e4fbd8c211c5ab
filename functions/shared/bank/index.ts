import { now, port } from '#shared/aws';
import { SandboxBank } from './sandbox-bank';

/** The sandbox bank is the only provider today (DESIGN.md §4). */
export const bank = port('bank', () => new SandboxBank(now));
