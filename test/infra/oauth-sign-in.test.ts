import type { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { routes } from '../../functions/routes';
import { BillingStack } from '../../lib/billing-stack';
import { upstreamRoutes } from '../../lib/oauth-sign-in';
import { routeTagKey } from '../../lib/route-function';
import { flattenTemplates, stackTemplates, testApp } from './stack-templates';

const base = { jwtIssuer: 'https://issuer.test/', jwtAudience: 'billing-test' };
const upstream = { oauthUpstreamIssuer: 'https://login.example.com', oauthUpstreamClientId: 'billing-api', oauthWorkspaceClaim: 'https://example.com/workspaces' };
const importedArn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:billing/oidc-AbCdEf';

type Resource = { Properties: Record<string, any> };

const synthesized = new Map<string, ReturnType<typeof synthOnce>>();
/** Each configuration is synthesized once (a synth takes seconds). */
function synth(context: Record<string, unknown>) {
  const key = JSON.stringify(context);
  if (!synthesized.has(key)) synthesized.set(key, synthOnce(context));
  return synthesized.get(key)!;
}

function synthOnce(context: Record<string, unknown>) {
  const stack = new BillingStack(testApp({ ...base, ...context }), 'Test');
  const template = flattenTemplates(stackTemplates(stack));
  const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
  const byRoute = new Map<string, Resource & { id: string }>();
  for (const [id, fn] of Object.entries(functions)) {
    const tag = (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === routeTagKey);
    if (tag) byRoute.set(tag.Value, { id, ...fn });
  }
  return { stack, template, byRoute };
}

/** Every IAM statement granted to a function's role. */
function statementsOf(template: Template, fn: Resource): { Action: string | string[]; Resource: unknown }[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const secretActions = (template: Template, fn: Resource) =>
  // Every function reads the hosted pages' link key (lib/hosted-pages.ts): the sign-in's secret is the question here.
  statementsOf(template, fn).filter((s) => [s.Action].flat().some((a) => a.startsWith('secretsmanager:')) && !JSON.stringify(s.Resource).includes('HostedPages'));

/** The stack's secrets but the hosted pages' link key (lib/hosted-pages.ts), which every stack has. */
const signInSecrets = (template: Template) =>
  Object.fromEntries(Object.entries(template.findResources('AWS::SecretsManager::Secret')).filter(([id]) => !id.startsWith('HostedPages')));

describe('the upstream OpenID sign-in', () => {
  it('from CDK context: a secret to fill in, read by the callback route alone, and the settings on the routes that sign in', () => {
    const { template, byRoute } = synth(upstream);
    const secrets = signInSecrets(template);
    expect(Object.keys(secrets)).toHaveLength(1);
    const secretId = Object.keys(secrets)[0]!;

    const callback = byRoute.get('oauthCallback')!;
    expect(callback.Properties.Environment.Variables).toMatchObject({
      OAUTH_UPSTREAM_ISSUER: 'https://login.example.com',
      OAUTH_UPSTREAM_CLIENT_ID: 'billing-api',
      OAUTH_WORKSPACE_CLAIM: 'https://example.com/workspaces',
      OAUTH_UPSTREAM_CLIENT_SECRET_ARN: { Ref: secretId },
    });
    expect(secretActions(template, callback)).toEqual([
      expect.objectContaining({ Action: expect.arrayContaining(['secretsmanager:GetSecretValue']), Resource: { Ref: secretId } }),
    ]);

    const authorize = byRoute.get('oauthAuthorize')!;
    expect(authorize.Properties.Environment.Variables.OAUTH_UPSTREAM_ISSUER).toBe('https://login.example.com');
    expect(authorize.Properties.Environment.Variables.OAUTH_UPSTREAM_CLIENT_SECRET_ARN).toBeUndefined();

    const others = routes.filter((r) => !(upstreamRoutes.discovery as readonly string[]).includes(r.id));
    for (const route of others) {
      const fn = byRoute.get(route.id)!;
      expect([route.id, secretActions(template, fn), fn.Properties.Environment.Variables.OAUTH_UPSTREAM_ISSUER]).toEqual([route.id, [], undefined]);
    }
    // Never on AWS: the local development sign-in.
    for (const fn of byRoute.values()) expect(fn.Properties.Environment.Variables.OAUTH_DEV_SIGN_IN).toBeUndefined();
  });

  it('with an existing secret: no new one, and the callback reads that one', () => {
    const { template, byRoute } = synth({ ...upstream, oauthUpstreamClientSecretArn: importedArn });
    expect(Object.keys(signInSecrets(template))).toHaveLength(0);
    const callback = byRoute.get('oauthCallback')!;
    expect(callback.Properties.Environment.Variables.OAUTH_UPSTREAM_CLIENT_SECRET_ARN).toBe(importedArn);
    expect(secretActions(template, callback)).toEqual([expect.objectContaining({ Resource: importedArn })]);
  });

  it('without an issuer: no secret and no sign-in settings (the authorization page says sign-in is unavailable)', () => {
    const { template, byRoute } = synth({});
    expect(Object.keys(signInSecrets(template))).toHaveLength(0);
    expect(byRoute.get('oauthCallback')!.Properties.Environment.Variables.OAUTH_UPSTREAM_ISSUER).toBeUndefined();
  });

  it('an issuer without a client id is refused at synth', () => {
    expect(() => synth({ oauthUpstreamIssuer: 'https://login.example.com' })).toThrow(/oauthUpstreamClientId/);
  });

  it('leaves no unacknowledged cdk-nag finding', () => {
    const { stack } = synth(upstream);
    const report = new AwsSolutionsChecks().validateScope(stack);
    expect(report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath ?? r.resourceLogicalId}`))).toEqual([]);
  });
});

describe('the OAuth browser routes', () => {
  it('are GETs that write (the pending sign-in), unlike every other GET', () => {
    const { template, byRoute } = synth({});
    const writes = (id: string) => statementsOf(template, byRoute.get(id)!).some((s) => [s.Action].flat().includes('dynamodb:PutItem'));
    expect(writes('oauthAuthorize')).toBe(true);
    expect(writes('oauthCallback')).toBe(true);
    expect(writes('oauthAuthorizationServerMetadata')).toBe(false);
    expect(writes('listCustomers')).toBe(false);
  });

  it('the token endpoint alone signs with the service key (kms:Sign); no other OAuth route may', () => {
    const { template, byRoute } = synth({});
    const signs = (id: string) => statementsOf(template, byRoute.get(id)!).some((s) => [s.Action].flat().includes('kms:Sign'));
    expect(signs('oauthToken')).toBe(true);
    for (const route of routes.filter((r) => r.tag === 'OAuth' && r.id !== 'oauthToken')) expect([route.id, signs(route.id)]).toEqual([route.id, false]);
    expect(byRoute.get('oauthToken')!.Properties.Environment.Variables.TOKEN_SIGNING_KEY_ID).toBeDefined();
  });
});
