/**
 * The person (payment-delivery API) as the domain sees it: enums and reason codes of the
 * contract (docs/api.md#persons), the stored shape, and what identification looks at.
 */
export const PERSON_STATUSES = ['created', 'verified', 'rejected', 'restricted', 'closed'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

/** Why a person is rejected or restricted, with a message fit to show an end user. */
export const REASON_MESSAGES = {
  deceased_person: 'The person is reported as deceased.',
  incomplete_address: 'The address is missing some or all required elements.',
  incomplete_dob: 'The date of birth is missing some or all required elements.',
  incomplete_ssn: 'The Social Security number is missing some or all required elements.',
  ineligible_age: 'The person is under 18 and not eligible for the product.',
  invalid_address_type: 'The address is of a type that is not supported, such as a P.O. box.',
  invalid_dob: 'The date of birth is not valid.',
  invalid_name: 'The name is not valid.',
  invalid_ssn: 'The Social Security number is not valid.',
  matched_alertlist: 'The person matched a list of known fraudulent users.',
  matched_watchlist: 'The person matched one or more sanctions lists.',
} as const;
export type ReasonCode = keyof typeof REASON_MESSAGES;
export const REASON_CODES = Object.keys(REASON_MESSAGES) as ReasonCode[];

export interface StatusReason {
  reason_code: ReasonCode;
  reason_code_message: string;
}

export const statusReason = (code: ReasonCode): StatusReason => ({
  reason_code: code,
  reason_code_message: REASON_MESSAGES[code],
});

export const ADDRESS_TYPES = ['home', 'legal'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];
export const CONTACT_TYPES = ['email', 'phone'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

export interface PersonAddress {
  id: string;
  type: AddressType;
  address1: string;
  address2?: string;
  city: string;
  state: string;
  country: 'US';
  zip5: string;
  created_at: string;
  updated_at: string;
}

export interface PersonContact {
  id: string;
  type: ContactType;
  value: string;
  created_at: string;
  updated_at: string;
}

/** Who runs identification: the partner (BYO-KYC) or the service through its identity vendor. */
export const KYC_MODES = ['byo', 'service'] as const;
export type KycMode = (typeof KYC_MODES)[number];

/** The stored person, without storage keys. The SSN is never here: only its ciphertext, kept apart. */
export interface Person {
  id: string;
  tenant: string;
  customer_reference_id: string;
  first_name: string;
  middle_name?: string;
  last_name: string;
  /** YYYY-MM-DD. */
  date_of_birth?: string;
  /** Whether an SSN was supplied (its ciphertext is kept beside the person, never returned). */
  has_ssn: boolean;
  status: PersonStatus;
  status_reasons?: StatusReason[];
  addresses?: PersonAddress[];
  contacts?: PersonContact[];
  metadata?: Record<string, string>;
  created_at: string;
  updated_at: string;
  closed_at?: string;
  /**
   * Identification runs since the identity data last changed: a rejection is retried
   * automatically once, so the worker stops retrying at 2.
   */
  identification_attempts: number;
  version: number;
}

/** What identification checks: the identity data, the SSN in clear (digits only) for the worker alone. */
export interface IdentityData {
  first_name: string;
  middle_name?: string;
  last_name: string;
  date_of_birth?: string;
  ssn?: string;
  address?: Pick<PersonAddress, 'type' | 'address1' | 'address2' | 'city' | 'state' | 'country' | 'zip5'>;
}

/** A person with any of SSN, date of birth or address is identified; names alone stay `created`. */
export const needsIdentification = (person: Pick<Person, 'has_ssn' | 'date_of_birth' | 'addresses'>): boolean =>
  person.has_ssn || person.date_of_birth !== undefined || (person.addresses?.length ?? 0) > 0;

/** The encryption context that binds an SSN ciphertext to its person. */
export const personSecretContext = (person: Pick<Person, 'tenant' | 'id'>) => ({
  tenant: person.tenant,
  person_id: person.id,
  purpose: 'ssn' as const,
});
