import { Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { API_FUNCTION_TIMEOUT_SECONDS } from '#lib/service/index';
import { IDEMPOTENCY_BUNDLE_CONSTANT } from '#shared/http/table-access';
import { ServiceFunction } from './service-function';
import type { ServiceFunctionProps } from './service-function-props';

export interface ApiFunctionProps extends Omit<ServiceFunctionProps, 'timeout'> {
  /**
   * Below API Gateway's 30 s integration limit, so a stuck call ends as a clean 5xx from
   * the function rather than a gateway timeout.
   * @default Duration.seconds(API_FUNCTION_TIMEOUT_SECONDS)
   */
  readonly timeout?: Duration;
  /**
   * The route's method takes an `Idempotency-Key` (`takesIdempotencyKey` of its row): only
   * then does the bundle carry the HTTP stack's idempotency middleware and its records.
   */
  readonly takesIdempotencyKey: boolean;
}

/**
 * The function behind one HTTP API route: a `ServiceFunction` (the house defaults) with
 * the API's timeout, bundling the idempotency middleware only where the route takes keys.
 */
export class ApiFunction extends ServiceFunction {
  constructor(scope: Construct, id: string, { takesIdempotencyKey, ...props }: ApiFunctionProps) {
    super(scope, id, {
      ...props,
      timeout: props.timeout ?? Duration.seconds(API_FUNCTION_TIMEOUT_SECONDS),
      bundleConstants: { ...props.bundleConstants, [IDEMPOTENCY_BUNDLE_CONSTANT]: takesIdempotencyKey },
    });
  }
}
