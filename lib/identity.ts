import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AuthorizerPayloadVersion, HttpAuthorizer, HttpAuthorizerType, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { AUTHORIZER_CACHE_SECONDS } from '../shared/identity/cache-lifetimes';
import type { BillingFunction, FunctionOperations } from './billing-function';
import { workerFunction } from './worker-function';

export const authorizerHandler = { id: 'authorizeRequests', entry: 'functions/authorizer/authorize.ts', timeout: Duration.seconds(5) } as const;

/** What a route does with the service's signing key: publish its public half, or sign tokens with it. */
export type SigningKeyUse = 'publish' | 'sign';

/** The routes that use the signing key, and how (every other route never sees it). */
export const routesUsingSigningKey: Readonly<Record<string, SigningKeyUse>> = { getJwks: 'publish', oauthToken: 'sign' };

/** An identity provider whose JWTs the API accepts beside its own (DESIGN.md §14); CDK context or props. */
export interface ExternalIssuer {
  issuer: string;
  /** Audiences its tokens may name (at least one). */
  audiences: string[];
  /** Default: `<issuer>/.well-known/jwks.json`. */
  jwksUrl?: string;
}

export interface IdentityProps {
  api: HttpApi;
  table: ITable;
  projectRoot: string;
  operations: FunctionOperations;
  /** The API's public base URL, the tokens' issuer: the API's own endpoint unless a custom domain fronts it. */
  publicUrl: string;
  externalIssuer?: ExternalIssuer;
}

/**
 * The service as its own issuer (DESIGN.md §14): an asymmetric KMS key signs its access tokens (the private key never
 * leaves KMS), and one Lambda authorizer resolves every bearer credential — a JWT of the service or of a trusted
 * external issuer, or an API key (one GetItem) — into the claims the routes read. API Gateway caches each answer per
 * Authorization header for AUTHORIZER_CACHE_SECONDS (a hit costs no Lambda call and no DynamoDB read), and the
 * authorizer keeps its own resolutions while no key of the workspace is revoked: together they bound how long a
 * revoked API key may still pass (REVOCATION_BOUND_SECONDS, docs/identity.md).
 */
export class Identity extends Construct {
  readonly signingKey: Key;
  readonly authorizerFunction: BillingFunction;
  readonly authorizer: HttpAuthorizer;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    this.signingKey = new Key(this, 'TokenSigningKey', {
      description: 'Signs the access tokens of the billing API (RS256); the public key is at /.well-known/jwks.json',
      keySpec: KeySpec.RSA_2048,
      keyUsage: KeyUsage.SIGN_VERIFY,
      // Deleting it would invalidate every token in flight and cannot be undone after the waiting period.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.authorizerFunction = workerFunction(this, 'Authorizer', authorizerHandler, {
      projectRoot: props.projectRoot, operations: props.operations, table: props.table,
      description: 'Resolves bearer credentials (service JWTs, external JWTs, API keys) for the HTTP API',
    });
    this.useSigningKey(this.authorizerFunction.fn, 'publish', props.publicUrl);
    const external = props.externalIssuer;
    if (external) {
      this.authorizerFunction.fn.addEnvironment('EXTERNAL_JWT_ISSUER', external.issuer);
      this.authorizerFunction.fn.addEnvironment('EXTERNAL_JWT_AUDIENCE', external.audiences.join(','));
      if (external.jwksUrl) this.authorizerFunction.fn.addEnvironment('EXTERNAL_JWT_JWKS_URL', external.jwksUrl);
    }

    const stack = Stack.of(this);
    this.authorizer = new HttpAuthorizer(props.api, 'CredentialAuthorizer', {
      httpApi: props.api,
      type: HttpAuthorizerType.LAMBDA,
      authorizerName: 'credentials',
      identitySource: ['$request.header.Authorization'],
      enableSimpleResponses: true,
      payloadFormatVersion: AuthorizerPayloadVersion.VERSION_2_0,
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_SECONDS),
      authorizerUri: `arn:${stack.partition}:apigateway:${stack.region}:lambda:path/2015-03-31/functions/${this.authorizerFunction.fn.functionArn}/invocations`,
    });
    this.authorizerFunction.fn.addPermission('InvokedByApiGateway', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: stack.formatArn({ service: 'execute-api', resource: props.api.apiId, resourceName: `authorizers/${this.authorizer.authorizerId}` }),
    });
  }

  /** Lets `fn` publish the signing key's public half (GetPublicKey) or also sign with it (Sign), and tells it the key. */
  useSigningKey(fn: IFunction & { addEnvironment(name: string, value: string): unknown }, use: SigningKeyUse, publicUrl: string): void {
    fn.addEnvironment('TOKEN_SIGNING_KEY_ID', this.signingKey.keyArn);
    fn.addEnvironment('PUBLIC_API_URL', publicUrl);
    this.signingKey.grant(fn, 'kms:GetPublicKey', ...(use === 'sign' ? ['kms:Sign'] : []));
  }
}
