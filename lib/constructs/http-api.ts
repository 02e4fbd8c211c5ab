import { Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { isProviderSigned, type RouteDefinition } from '#lib/service/index';
import type { JwtSettings } from './identity';

/**
 * One JSON object per request. Identifies the request, the caller (the token's
 * `client_id`, i.e. the tenant or its alias), the latency and the outcome; never bodies,
 * headers, query strings or the path as sent (`routeKey` names the route by its template),
 * which may carry account numbers or SSNs.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    httpMethod: '$context.httpMethod',
    protocol: '$context.protocol',
    status: '$context.status',
    responseLength: '$context.responseLength',
    responseLatency: '$context.responseLatency',
    integrationStatus: '$context.integrationStatus',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    error: '$context.error.message',
    authorizerError: '$context.authorizer.error',
    clientId: '$context.authorizer.claims.client_id',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
  }),
);

export interface HttpApiProps {
  /** Issuer, audience and scope prefix the JWT authorizer enforces. */
  readonly jwt: JwtSettings;
  /**
   * Steady-state request rate of the default stage (requests per second, all routes).
   * @default 50
   */
  readonly throttleRateLimit?: number;
  /**
   * Burst capacity of the default stage.
   * @default 100
   */
  readonly throttleBurstLimit?: number;
  /**
   * How long access log entries are kept.
   * @default RetentionDays.ONE_YEAR
   */
  readonly accessLogRetention?: RetentionDays;
}

/**
 * The public API Gateway HTTP API: a `$default` stage with JSON access logs and
 * throttling, and one JWT-protected route per entry of the route table. Every route
 * requires the route's scopes, each prefixed the way the issuer writes them; only the bank
 * provider's notice route, on real rails, has no authorizer (see `addRoute`).
 */
export class HttpApi extends Construct {
  readonly api: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly accessLogGroup: LogGroup;
  private readonly authorizer: HttpJwtAuthorizer;
  private readonly scopePrefix: string;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    this.scopePrefix = props.jwt.scopePrefix;
    this.api = new apigwv2.HttpApi(this, 'Api', {
      apiName: Stack.of(this).stackName,
      description: 'Verify service (account verification) for partners',
      // The default stage is added below: the built-in one cannot log or throttle.
      createDefaultStage: false,
    });
    this.accessLogGroup = new LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? RetentionDays.ONE_YEAR,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.throttleRateLimit ?? 50, burstLimit: props.throttleBurstLimit ?? 100 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup),
        format: ACCESS_LOG_FORMAT,
      },
    });
    this.authorizer = new HttpJwtAuthorizer('JwtAuthorizer', props.jwt.issuer, {
      jwtAudience: [...props.jwt.audience],
      identitySource: ['$request.header.Authorization'],
    });
  }

  /** Base URL of the API (the `$default` stage), with a trailing slash. */
  get url(): string {
    return this.stage.url;
  }

  /** The scopes API Gateway requires for a route, as the issuer writes them. */
  authorizationScopes(route: Pick<RouteDefinition, 'scopes'>): string[] {
    return route.scopes.map((s) => `${this.scopePrefix}${s}`);
  }

  /**
   * Adds the route `route.method route.path`, served by `handler`; its construct id is
   * `route.id`. Behind the JWT authorizer with the route's scopes, except a route the bank
   * provider calls (`auth: 'provider-signature'`), which has no authorizer: its handler
   * checks the provider's signature instead.
   */
  addRoute(route: RouteDefinition, handler: IFunction): apigwv2.HttpRoute {
    const integration = new HttpLambdaIntegration('Integration', handler);
    const routeKey = apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]);
    if (!isProviderSigned(route)) {
      return new apigwv2.HttpRoute(this, route.id, {
        httpApi: this.api,
        routeKey,
        integration,
        authorizer: this.authorizer,
        authorizationScopes: this.authorizationScopes(route),
      });
    }
    const unauthorized = new apigwv2.HttpRoute(this, route.id, {
      httpApi: this.api,
      routeKey,
      integration,
      authorizer: new apigwv2.HttpNoneAuthorizer(),
    });
    Validations.of(unauthorized).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'The bank provider calls this route with its webhook notices and holds no token of the service. The provider signs every notice; the handler checks the signature with the provider’s scheme before reading anything and answers 401 invalid_signature, applying nothing, to any notice it did not sign; bodies over 64 KiB are refused first. Deployed only on real rails (context bankProvider).',
    });
    return unauthorized;
  }
}
