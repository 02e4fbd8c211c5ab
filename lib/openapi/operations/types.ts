import type * as z from 'zod/mini';
import type { ErrorCode } from '../error-codes';
import type { Example } from '../examples/example';

export type Tag = 'Verify accounts' | 'Persons' | 'Screening review' | 'Events' | 'Webhooks' | 'Local sandbox';

export interface SuccessSpec {
  readonly status: 200 | 201 | 202 | 204;
  readonly description: string;
  /** The body's schema (functions/<area>/openapi-responses.ts); none: no body. */
  readonly body?: z.core.$ZodType;
  readonly examples?: Readonly<Record<string, Example>>;
  /** The answer carries `Cache-Control: no-store` (it holds a secret). */
  readonly noStore?: true;
}

export interface OperationSpec {
  /** Orum's operationId where Orum has the operation, so generated clients name it alike. */
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: Tag;
  /** Descriptions of the path and query parameters, by name. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** The component name of the request body (Orum's where it has one); its schema is the handler's. */
  readonly requestBody?: {
    readonly name: string;
    readonly description?: string;
    readonly examples?: Readonly<Record<string, Example>>;
  };
  readonly success: SuccessSpec;
  /**
   * The schema the route's use case completes a partial body to from the stored record
   * (PATCH's partial address and contacts): the codes it answers are the route's too.
   */
  readonly bodyCompletion?: z.core.$ZodType;
  /**
   * Codes the route's own code raises, by status, beyond the middleware stack's and its
   * schemas' (contract.ts derives those), e.g. a `superRefine`'s or a use case's.
   */
  readonly errors?: Partial<Readonly<Record<400 | 403 | 404 | 409 | 429, readonly ErrorCode[]>>>;
  /** Examples of error answers, by status. */
  readonly errorExamples?: Partial<Readonly<Record<400, Readonly<Record<string, Example>>>>>;
}
