import { Validations } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type Node } from 'constructs';
import type { RouteDefinition } from '../functions/routes';

/**
 * The upstream OpenID Connect provider people sign in with (docs/oauth.md, "Configuration"). From the stack's
 * props, else CDK context: `oauthUpstreamIssuer`, `oauthUpstreamClientId`, and optionally
 * `oauthUpstreamClientSecretArn` (an existing secret), `oauthUpstreamScope`, `oauthWorkspaceClaim`.
 */
export interface UpstreamOidcProps {
  issuer: string;
  clientId: string;
  /** A Secrets Manager secret (complete ARN) holding the client secret as a plain string. Default: the stack makes one to fill in. */
  clientSecretArn?: string;
  /** Default `openid email profile`. */
  scope?: string;
  /** The ID token claim naming the person's workspaces. Default `billing_workspaces`. */
  workspaceClaim?: string;
}

/** The props given, else the context values; undefined when no issuer is configured (nobody can sign in then). */
export function resolveUpstreamOidc(node: Node, props?: UpstreamOidcProps): UpstreamOidcProps | undefined {
  if (props) return props;
  const context = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const issuer = context('oauthUpstreamIssuer');
  if (!issuer) return undefined;
  const clientId = context('oauthUpstreamClientId');
  if (!clientId) throw new Error('BillingStack: CDK context "oauthUpstreamIssuer" is set but "oauthUpstreamClientId" is not');
  return {
    issuer,
    clientId,
    clientSecretArn: context('oauthUpstreamClientSecretArn'),
    scope: context('oauthUpstreamScope'),
    workspaceClaim: context('oauthWorkspaceClaim'),
  };
}

/** The routes that talk to the upstream provider: authorize (its discovery) and the callback (code exchange, with the secret). */
export const upstreamRoutes = { discovery: ['oauthAuthorize', 'oauthCallback'], secret: ['oauthCallback'] } as const;

/**
 * The sign-in's configuration and the upstream client secret. The secret is read at run time by the callback route
 * alone (GetSecretValue on this one secret); the other settings are environment variables of the routes that need
 * them. A secret made by the stack holds a random placeholder: put the provider's client secret in it after deploy.
 */
export class OAuthSignIn extends Construct {
  readonly secret: ISecret;

  constructor(
    scope: Construct,
    id: string,
    private readonly settings: UpstreamOidcProps,
  ) {
    super(scope, id);
    if (settings.clientSecretArn) {
      this.secret = Secret.fromSecretCompleteArn(this, 'UpstreamClientSecret', settings.clientSecretArn);
    } else {
      const secret = new Secret(this, 'UpstreamClientSecret', {
        description: `Client secret of the billing API at the OpenID provider ${settings.issuer} (replace the placeholder after deploy)`,
      });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason: 'The identity provider issues this client secret and rotates it; the operator puts each new value here. No Lambda can rotate it.',
      });
      this.secret = secret;
    }
  }

  /** Gives a route function what its part of the sign-in needs, and nothing to the other routes. */
  bind(fn: LambdaFunction, route: Pick<RouteDefinition, 'id'>): void {
    if (!(upstreamRoutes.discovery as readonly string[]).includes(route.id)) return;
    fn.addEnvironment('OAUTH_UPSTREAM_ISSUER', this.settings.issuer);
    fn.addEnvironment('OAUTH_UPSTREAM_CLIENT_ID', this.settings.clientId);
    if (this.settings.scope) fn.addEnvironment('OAUTH_UPSTREAM_SCOPE', this.settings.scope);
    if (this.settings.workspaceClaim) fn.addEnvironment('OAUTH_WORKSPACE_CLAIM', this.settings.workspaceClaim);
    if ((upstreamRoutes.secret as readonly string[]).includes(route.id)) {
      fn.addEnvironment('OAUTH_UPSTREAM_CLIENT_SECRET_ARN', this.secret.secretArn);
      this.secret.grantRead(fn);
    }
  }
}
