import { Stack, Validations, type App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { BillingStack } from '../../lib/billing-stack';
import { flattenTemplates, stackTemplates, testApp, validationFindings } from './stack-templates';
import { resolveWorstCase } from './worst-case';

/**
 * Lambda refuses a function whose environment (names and values) exceeds 4 KB, and IAM a role whose inline policies
 * exceed 10,240 characters (whitespace not counted): CloudFormation finds out mid-deploy and rolls back. A template
 * holds references, not values, so every Ref, GetAtt, Sub and Join is resolved here to the longest value AWS could
 * give it (./worst-case.ts): 64-character function names, 255-character table names, the longest partition and region.
 */
const lambdaEnvironmentLimit = 4 * 1024;
const rolePolicyLimit = 10_240;

type Json = Record<string, any>;

/** Every optional part on: upstream OIDC sign-in, an external issuer, a customer key, an alarm topic and address, an SES identity, a long stack name. */
const everything = {
  jwtIssuer: 'https://login.example-identity-provider.com/realms/billing-production/',
  jwtAudience: 'billing-api-production,billing-api-staging',
  jwtJwksUrl: 'https://login.example-identity-provider.com/realms/billing-production/protocol/openid-connect/certs',
  oauthUpstreamIssuer: 'https://login.example-identity-provider.com/realms/billing-production',
  oauthUpstreamClientId: 'billing-api-production-sign-in',
  oauthWorkspaceClaim: 'https://billing.example.com/claims/workspaces',
  alarmEmail: 'billing-operations-alerts@example-company-with-a-long-name.com',
  publicApiUrl: 'https://api.billing.example-company-with-a-long-name.com',
  publicPagesUrl: 'https://pay.billing.example-company-with-a-long-name.com/pages',
  sesIdentity: 'mail.billing.example-company-with-a-long-name.com',
};
/** CloudFormation's longest stack name (128 characters): it appears in names the stack gives. */
const longStackName = `Billing${'X'.repeat(121)}`;

const templates: [string, Template][] = [];
/** The apps of the two templates, for their CloudFormation validation reports. */
const apps: App[] = [];
beforeAll(() => {
  const plainApp = testApp({}, { validated: true });
  const plain = new BillingStack(plainApp, 'BillingApi');
  templates.push(['the default stack', flattenTemplates(stackTemplates(plain))]);
  const app = testApp(everything, { validated: true });
  apps.push(plainApp, app);
  const shared = new Stack(app, 'Shared');
  Validations.of(shared).acknowledge({ id: 'CloudFormation-Validate::F0001', reason: 'Holds only imported references (the key and the topic), no resources.' });
  const full = new BillingStack(app, longStackName, {
    encryptionKey: Key.fromKeyArn(shared, 'Key', `arn:aws-us-gov:kms:ap-southeast-7:123456789012:key/mrk-${'0'.repeat(32)}`),
    alarmTopic: Topic.fromTopicArn(shared, 'Topic', `arn:aws-us-gov:sns:ap-southeast-7:123456789012:${'t'.repeat(256)}`),
  });
  templates.push(['every option on, the longest stack name', flattenTemplates(stackTemplates(full))]);
});

/** The size Lambda counts: the variables as one JSON object, in bytes (its refusal quotes it as "String measured: {…}"). */
const environmentBytes = (variables: Record<string, string>): number => Buffer.byteLength(JSON.stringify(variables));

test.each([0, 1])('every function\'s environment stays under Lambda\'s 4 KB with every reference at its longest (%#)', (which) => {
  const [name, template] = templates[which]!;
  const resources = template.toJSON().Resources as Json;
  const sizes = Object.entries(resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([id, fn]) => {
      const variables = resolveWorstCase(fn.Properties.Environment?.Variables ?? {}, resources) as Record<string, string>;
      return { id, bytes: environmentBytes(variables) };
    });
  expect(sizes.length).toBeGreaterThan(100);
  const over = sizes.filter((s) => s.bytes >= lambdaEnvironmentLimit).map((s) => `${s.id}: ${s.bytes} bytes`);
  expect([name, over]).toEqual([name, []]);
});

test.each([0, 1])('every role\'s inline policies stay under IAM\'s 10,240 characters with every reference at its longest (%#)', (which) => {
  const [name, template] = templates[which]!;
  const resources = template.toJSON().Resources as Json;
  const byRole = new Map<string, number>();
  for (const [id, role] of Object.entries(resources).filter(([, r]) => r.Type === 'AWS::IAM::Role')) {
    const own = (role.Properties.Policies ?? []) as Json[];
    byRole.set(id, own.reduce((sum, p) => sum + policyCharacters(p.PolicyDocument, resources), 0));
  }
  for (const policy of Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy')) {
    for (const role of policy.Properties.Roles as Json[]) {
      const roleId = role.Ref as string;
      if (byRole.has(roleId)) byRole.set(roleId, byRole.get(roleId)! + policyCharacters(policy.Properties.PolicyDocument, resources));
    }
  }
  expect(byRole.size).toBeGreaterThan(100);
  const over = [...byRole].filter(([, size]) => size >= rolePolicyLimit).map(([id, size]) => `${id}: ${size} characters`);
  expect([name, over]).toEqual([name, []]);
});

// The other infra tests synthesize without it (./stack-templates.ts, testApp): here it runs once per template, as errors.
test.each([0, 1])('CDK\'s CloudFormation validation (cfn-lint\'s rules) finds nothing in the template (%#)', (which) => {
  expect([templates[which]![0], validationFindings(apps[which]!)]).toEqual([templates[which]![0], []]);
});

/** A policy document as IAM counts it: its JSON without whitespace, every reference at its longest. */
const policyCharacters = (document: unknown, resources: Json): number => JSON.stringify(resolveWorstCase(document, resources)).length;
