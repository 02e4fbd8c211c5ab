import type { ACHPrenotification } from 'increase/resources/ach-prenotifications';
import type { ACHTransfer } from 'increase/resources/ach-transfers';
import { NACHA_CODE_OF } from '#shared/bank/increase/return-codes';
import type { FakeIncreaseOptions } from './fake-increase-options';
import { readFakeIncreaseState, writeFakeIncreaseState } from './fake-increase-state';
import { correctionFor } from './fake-receiving-bank';

/** The three-character code Increase shows beside each return reason. */
const RAW_CODE_OF = NACHA_CODE_OF as Readonly<Record<ACHTransfer.Return['return_reason_code'], string>>;

/**
 * What the Increase fake (./fake-increase.ts) holds: its objects, the idempotency keys that
 * made them, and the steps of Increase's lifecycle a test (or the fake's receiving banks)
 * moves them through; kept in `stateFile` across restarts when one is given.
 */
export class FakeIncreaseLedger {
  readonly prenotifications = new Map<string, ACHPrenotification>();
  readonly transfers = new Map<string, ACHTransfer>();
  readonly createdPerKey = new Map<string, number>();
  protected readonly byKey = new Map<string, { id: string; body: string }>();
  protected sequence = 0;

  constructor(readonly options: FakeIncreaseOptions) {}

  /** What `stateFile` holds (./fake-increase-state.ts), if anything. */
  protected load(): void {
    const state = this.options.stateFile && readFakeIncreaseState(this.options.stateFile);
    if (!state) return;
    this.sequence = state.sequence;
    for (const prenote of state.prenotifications) this.prenotifications.set(prenote.id, prenote);
    for (const transfer of state.transfers) this.transfers.set(transfer.id, transfer);
    for (const [key, first] of state.byKey) this.byKey.set(key, first);
    for (const [key, count] of state.createdPerKey) this.createdPerKey.set(key, count);
  }

  protected save(): void {
    if (!this.options.stateFile) return;
    writeFakeIncreaseState(this.options.stateFile, {
      sequence: this.sequence,
      prenotifications: [...this.prenotifications.values()],
      transfers: [...this.transfers.values()],
      byKey: [...this.byKey],
      createdPerKey: [...this.createdPerKey],
    });
  }

  /** The prenotification sent with this idempotency key. */
  prenotificationByKey(key: string): ACHPrenotification | undefined {
    const id = this.byKey.get(key)?.id;
    return id === undefined ? undefined : this.prenotifications.get(id);
  }

  /** The transfer sent with this idempotency key. */
  transferByKey(key: string): ACHTransfer | undefined {
    const id = this.byKey.get(key)?.id;
    return id === undefined ? undefined : this.transfers.get(id);
  }

  /** Increase submits every prenotification waiting to be (it does so within the day it was made). */
  submitPrenotifications(): void {
    for (const prenote of this.prenotifications.values()) {
      if (prenote.status === 'pending_submitting') prenote.status = 'submitted';
    }
  }

  /** Increase holds a prenotification for a person to look at: it is not sent. */
  holdPrenotification(id: string): void {
    this.prenotification(id).status = 'requires_attention';
  }

  /** The receiving bank returns the prenotification. */
  returnPrenotification(id: string, reason: ACHPrenotification.PrenotificationReturn['return_reason_code']) {
    const prenote = this.prenotification(id);
    prenote.status = 'returned';
    prenote.prenotification_return = { created_at: this.options.now().toISOString(), return_reason_code: reason };
    return prenote;
  }

  /**
   * The receiving bank posts the prenotification and asks that later entries use corrected
   * data (a notification of change): the prenotification is `submitted`, not returned.
   */
  notifyOfChange(id: string, change: ACHPrenotification.NotificationsOfChange['change_code']) {
    const prenote = this.prenotification(id);
    prenote.status = 'submitted';
    prenote.notifications_of_change.push({
      change_code: change,
      ...correctionFor(change, prenote),
      created_at: this.options.now().toISOString(),
    });
    return prenote;
  }

  /** Increase submits every transfer waiting to be (`pending_submission` → `submitted`); held or unapproved ones stay. */
  submitTransfers(): void {
    for (const transfer of this.transfers.values()) {
      if (transfer.status === 'pending_submission') transfer.status = 'submitted';
    }
  }

  /** Increase holds a transfer for a person to look at (`requires_attention`), or rejects it (`rejected`): no money moves. */
  stopTransfer(id: string, status: 'requires_attention' | 'rejected'): ACHTransfer {
    const transfer = this.transfer(id);
    transfer.status = status;
    return transfer;
  }

  /** The receiving bank returns the transfer (Increase's `return`, with the NACHA code it carries). */
  returnTransfer(id: string, reason: ACHTransfer.Return['return_reason_code']): ACHTransfer {
    const transfer = this.transfer(id);
    transfer.status = 'returned';
    transfer.return = {
      addenda_information: null,
      created_at: this.options.now().toISOString(),
      raw_return_reason_code: RAW_CODE_OF[reason],
      return_reason_code: reason,
      trace_number: '000000000000001',
      transaction_id: `transaction_${++this.sequence}`,
      transfer_id: transfer.id,
    };
    return transfer;
  }

  private prenotification(id: string): ACHPrenotification {
    const prenote = this.prenotifications.get(id);
    if (!prenote) throw new Error(`no prenotification ${id}`);
    return prenote;
  }

  private transfer(id: string): ACHTransfer {
    const transfer = this.transfers.get(id);
    if (!transfer) throw new Error(`no transfer ${id}`);
    return transfer;
  }
}
