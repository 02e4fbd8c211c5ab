/**
 * API Gateway's own error responses: an HTTP API (payload format 2.0) generates these
 * bodies itself and cannot customise them, so clients see exactly these bytes in AWS. A
 * fact of the deployed API, held here beside the service description: the OpenAPI
 * document lists them and the local runtime's gateway answers them.
 */
export const GATEWAY_ERRORS = {
  notFound: { statusCode: 404, message: 'Not Found' },
  unauthorized: { statusCode: 401, message: 'Unauthorized' },
  forbidden: { statusCode: 403, message: 'Forbidden' },
  payloadTooLarge: { statusCode: 413, message: 'Request Entity Too Large' },
  /** AWS does not document this one's status; 431 is HTTP's (RFC 6585). See docs/decisions.md. */
  headersTooLarge: { statusCode: 431, message: 'Request Header Fields Too Large' },
  internalError: { statusCode: 500, message: 'Internal Server Error' },
  /** The integration did not answer within the HTTP API's 30 s (REST APIs answer 504). */
  serviceUnavailable: { statusCode: 503, message: 'Service Unavailable' },
} as const;

export type GatewayError = keyof typeof GATEWAY_ERRORS;
