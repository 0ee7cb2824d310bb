import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BillingFunction } from '../../lib/billing-function';
import { BillingStack, type BillingStackProps } from '../../lib/billing-stack';
import { testApp } from './stack-templates';

/** The AwsSolutions findings left once the acknowledgments in lib/ (each with its reason) are applied. */
const findings = (props: (scope: Stack) => BillingStackProps = () => ({})): string[] => {
  const app = testApp();
  const shared = new Stack(app, 'Shared');
  const stack = new BillingStack(app, 'Test', props(shared));
  const report = new AwsSolutionsChecks().validateScope(stack);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath ?? r.resourceLogicalId}`));
};

describe("cdk-nag's AwsSolutions checks", () => {
  test('the default stack has no unacknowledged finding', () => {
    expect(findings()).toEqual([]);
  });

  test('nor does a stack with a customer-managed key and an alarm topic', () => {
    const withKey = findings((shared) => ({
      encryptionKey: new Key(shared, 'Key', { enableKeyRotation: true }),
      alarmTopic: new Topic(shared, 'Alarms', { enforceSSL: true }),
    }));
    expect(withKey).toEqual([]);
  });

  test('nor does a stack sending emails through an SES identity (its bounce pipeline too), with or without a customer-managed key', () => {
    expect(findings(() => ({ sesIdentity: 'mail.example.com' }))).toEqual([]);
    expect(findings((shared) => ({ sesIdentity: 'mail.example.com', encryptionKey: new Key(shared, 'Key', { enableKeyRotation: true }) }))).toEqual([]);
  });

  test('nor does a stack with a customer-managed key and its own alarm topic, encrypted with it', () => {
    expect(findings((shared) => ({ encryptionKey: new Key(shared, 'Key', { enableKeyRotation: true }) }))).toEqual([]);
  });

  test('the checks do find what they look for: an unacknowledged wildcard fails them', () => {
    const app = testApp();
    const stack = new BillingStack(app, 'Test');
    const routeFunction = stack.routeStacks[0]!.node.findAll().find((c): c is BillingFunction => c instanceof BillingFunction)!;
    routeFunction.fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:*'], resources: ['*'] }));
    const rules = new AwsSolutionsChecks().validateScope(stack).violations.map((v) => v.ruleName);
    expect(rules).toContain('AwsSolutions-IAM5[Action::dynamodb:*]');
  });
});
