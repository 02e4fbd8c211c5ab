// The person (payment-delivery API) as the domain sees it: enums and reason codes of the
// contract (docs/api.md#persons), the stored shape, and what identification looks at.

export const PERSON_STATUSES = ['created', 'verified', 'rejected', 'restricted', 'closed'] as const;
export type PersonStatus = (typeof PERSON_STATUSES)[number];

/** Why a person is rejected or restricted, with a message fit to show an end user. */
const REASON_MESSAGES = {
  deceased_person: 'The person is reported as deceased.',
  incomplete_address: 'The address is missing some or all required elements.',
  incomplete_dob: 'The date of birth is missing some or all required elements.',
  incomplete_ssn: 'The Social Security number is missing some or all required elements.',
  ineligible_age: 'The person is under 18 and not eligible for the product.',
  invalid_address: 'The address does not match the records of the person.',
  invalid_address_type: 'The address is of a type that is not supported, such as a P.O. box.',
  invalid_dob: 'The date of birth is not valid.',
  invalid_name: 'The name is not valid.',
  invalid_phone: 'The phone number does not match the records of the person.',
  invalid_ssn: 'The Social Security number is not valid.',
  matched_alertlist: 'The person matched a list of known fraudulent users.',
  matched_watchlist: 'The person matched one or more sanctions lists.',
  unverified_identity: 'The identity could not be verified against authoritative records.',
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
type AddressType = (typeof ADDRESS_TYPES)[number];
export const CONTACT_TYPES = ['email', 'phone'] as const;
type ContactType = (typeof CONTACT_TYPES)[number];

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

/**
 * A person's metadata: the partner's own JSON, as Orum takes it (any JSON object; at most
 * 5 keys of at most 20 characters, each value at most 50 characters).
 */
type PersonMetadata = Record<string, MetadataValue>;
export type MetadataValue = string | number | boolean | null | MetadataValue[] | { [key: string]: MetadataValue };

export const MAX_METADATA_KEYS = 5;
export const MAX_METADATA_KEY_CHARS = 20;
export const MAX_METADATA_VALUE_CHARS = 50;

/**
 * Whether a value fits a metadata key: a string of at most 50 characters, or any other JSON
 * value of at most 50 characters written as JSON, so that it is small and bounds its own
 * nesting (25 levels at most, well inside DynamoDB's 32). Whether DynamoDB stores it as sent
 * (its numbers, its keys) is checked before, with a test event's data (#shared/storable-json).
 */
export function isMetadataValue(value: unknown): value is MetadataValue {
  if (typeof value === 'string') return [...value].length <= MAX_METADATA_VALUE_CHARS;
  return jsonLength(value, MAX_METADATA_VALUE_CHARS) <= MAX_METADATA_VALUE_CHARS;
}

/**
 * The characters of a value written as JSON, or Infinity once over `budget` or for what
 * JSON cannot hold. Stops as soon as the budget is spent, so a deeply nested value costs
 * no more than a shallow one (and never a deep recursion).
 */
function jsonLength(value: unknown, budget: number): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'boolean':
      return String(value).length;
    case 'number':
      return Number.isFinite(value) ? String(value).length : Number.POSITIVE_INFINITY;
    case 'string':
      return [...JSON.stringify(value)].length;
    case 'object': {
      const entries: [string | undefined, unknown][] = Array.isArray(value)
        ? value.map((item) => [undefined, item])
        : Object.entries(value);
      let used = 2 + Math.max(0, entries.length - 1);
      for (const [key, item] of entries) {
        if (key !== undefined) used += [...JSON.stringify(key)].length + 1;
        if (used <= budget) used += jsonLength(item, budget - used);
        if (used > budget) return Number.POSITIVE_INFINITY;
      }
      return used;
    }
    default:
      return Number.POSITIVE_INFINITY;
  }
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
  metadata?: PersonMetadata;
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
export type IdentityData = Pick<Person, 'first_name' | 'middle_name' | 'last_name' | 'date_of_birth'> & {
  ssn?: string;
  /** The person's phone contact as sent (an identity vendor may match it). */
  phone?: string;
  address?: Pick<PersonAddress, 'type' | 'address1' | 'address2' | 'city' | 'state' | 'country' | 'zip5'>;
};

/** A person with any of SSN, date of birth or address is identified; names alone stay `created`. */
export const needsIdentification = (person: Pick<Person, 'has_ssn' | 'date_of_birth' | 'addresses'>): boolean =>
  person.has_ssn || person.date_of_birth !== undefined || (person.addresses?.length ?? 0) > 0;

/** The encryption context that binds an SSN ciphertext to its person. */
export const personSecretContext = (person: Pick<Person, 'tenant' | 'id'>) => ({
  tenant: person.tenant,
  person_id: person.id,
  purpose: 'ssn' as const,
});
