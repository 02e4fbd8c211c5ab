import type { ListedPerson } from '#domain/screening-match';

// Screening fails closed (docs/decisions.md#screening): with no sanctions listing in the
// table (the lists never loaded, or lost), screening would clear every person, so it does
// not screen at all. The identification message fails, is retried and finally
// dead-lettered (alarmed), and the person stays `created` until the lists are loaded and
// the message redriven (docs/operations.md#screening-lists-unavailable).

/** The sanctions list holds no listing: nobody can be screened against it. */
export class ScreeningListsUnavailable extends Error {
  constructor() {
    super(
      'the sanctions list is empty: no person is screened, or verified, until it is loaded (npm run lists:load, or the ListsRefresh schedule)',
    );
    this.name = 'ScreeningListsUnavailable';
  }
}

/** Throws `ScreeningListsUnavailable` when the sanctions listings read are none. */
export function requireSanctionsListings(sanctions: readonly ListedPerson[]): void {
  if (sanctions.length === 0) throw new ScreeningListsUnavailable();
}
