import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BillingStack } from '../../lib/billing-stack';
import { routeTagKey } from '../../lib/route-function';
import { testApp } from './stack-templates';

type Resource = { Properties: Record<string, any> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const stacks = new Map<boolean, BillingStack>();
/** The stack, with a key of its own or without; each synthesized once (a synth takes seconds). */
const stackOf = (withKey = false): BillingStack => {
  if (stacks.has(withKey)) return stacks.get(withKey)!;
  const app = testApp();
  const stack = new BillingStack(app, 'Test', withKey ? { encryptionKey: new Key(new Stack(app, 'Shared'), 'Key', { enableKeyRotation: true }) } : {});
  stacks.set(withKey, stack);
  return stack;
};

const s3Statements = (template: Template): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as Statement[]).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:'))));

/** The files bucket (lib/files-bucket.ts), among the stack's buckets (the operators' dashboard has its own). */
const filesBucketOf = (template: Template): [string, Resource & { DeletionPolicy?: string }] => {
  const found = Object.entries(template.findResources('AWS::S3::Bucket') as Record<string, Resource>).filter(([id]) => id.startsWith('FilesBucket'));
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('the files bucket (logos, exports)', () => {
  test('is private, TLS-only, versioned and kept when the stack goes', () => {
    const template = Template.fromStack(stackOf());
    const [id, bucket] = filesBucketOf(template);
    expect(bucket).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        VersioningConfiguration: { Status: 'Enabled' },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  test('is encrypted with the stack\'s key when it has one', () => {
    const [, bucket] = filesBucketOf(Template.fromStack(stackOf(true)));
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('aws:kms');
  });

  test('a route function knows the bucket and may only get and put objects under ws/: no listing, no deletion, no other prefix', () => {
    const stack = stackOf();
    const nested = stack.routeStacks.find((group) => group.functions.has('getInvoice'))!;
    const template = Template.fromStack(nested);
    const fn = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).find((f) =>
      (f.Properties.Tags as { Key: string; Value: string }[]).some((tag) => tag.Key === routeTagKey && tag.Value === 'getInvoice'))!;
    expect(Object.keys(fn.Properties.Environment.Variables)).toContain('FILES_BUCKET');
    const statements = s3Statements(template);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect([statement.Action].flat().sort()).toEqual(['s3:GetObject', 's3:PutObject']);
      expect(JSON.stringify(statement.Resource)).toMatch(/\/ws\/\*"/);
    }
  });
});
