import { Template } from 'aws-cdk-lib/assertions';
import { BillingStack } from '../../lib/billing-stack';
import { devRoutes } from '../../lib/local/dev-routes';
import { emailFeedbackHandler, sesFeedbackDetailTypes } from '../../lib/email-feedback';
import { deliveryConsumer, deliveryQueueUrlEnv, emailTransportEnv, sesConfigurationSetEnv, streamHandler, workerTagKey } from '../../lib/event-pipeline';
import { routeTagKey } from '../../lib/route-function';
import { testApp } from './stack-templates';

type Props = { sesIdentity?: string };
const stacks = new Map<string, BillingStack>();
/** The stack of a configuration, synthesized once (a synth takes seconds) for the tests that read it. */
const stackOf = (props: Props = {}, context: Record<string, unknown> = {}): BillingStack => {
  const key = JSON.stringify([props, context]);
  if (!stacks.has(key)) stacks.set(key, new BillingStack(testApp(context), 'Test', props));
  return stacks.get(key)!;
};
/** The parent stack's template. */
const synth = (props: Props = {}, context: Record<string, unknown> = {}): Template => Template.fromStack(stackOf(props, context));

type Resource = { Properties: Record<string, any> };
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const functionOf = (template: Template, worker: string): [string, Resource] => {
  const found = Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).filter(([, fn]) =>
    (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.some((tag) => tag.Key === workerTagKey && tag.Value === worker),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** The environment of a route's function (in its nested stack), and the SES statements of that nested stack. */
function routeFunctionOf(props: Props, routeId: string) {
  const stack = stackOf(props);
  const template = Template.fromStack(stack.routeStacks.find((group) => group.functions.has(routeId))!);
  const fn = Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>).find((f) =>
    (f.Properties.Tags as { Key: string; Value: string }[]).some((tag) => tag.Key === routeTagKey && tag.Value === routeId))!;
  return { variables: fn.Properties.Environment.Variables as Record<string, unknown>, ses: sesStatements(template) };
}

/** Every statement of the template's policies that grants an SES action, with the roles it is attached to. */
const sesStatements = (template: Template): { roles: unknown[]; statement: Statement }[] =>
  Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as Statement[])
      .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:')))
      .map((statement) => ({ roles: policy.Properties.Roles as unknown[], statement })),
  );

const identityArn = (identity: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:identity/${identity}`]],
});
const configurationSetArn = (ref: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':configuration-set/', { Ref: ref }]],
});
const onlyKey = (resources: Record<string, unknown>): string => {
  expect(Object.keys(resources)).toHaveLength(1);
  return Object.keys(resources)[0]!;
};

describe('emails on AWS', () => {
  test('with an SES identity, only the delivery consumer may send, only from that identity and through the configuration set; the stream handler derives emails', () => {
    for (const template of [synth({ sesIdentity: 'mail.example.com' }), synth({}, { sesIdentity: 'mail.example.com' })]) {
      const [consumerId, consumer] = functionOf(template, deliveryConsumer.id);
      const [, stream] = functionOf(template, streamHandler.id);
      const configurationSet = onlyKey(template.findResources('AWS::SES::ConfigurationSet'));
      expect(consumer.Properties.Environment.Variables[emailTransportEnv]).toBe('ses');
      expect(consumer.Properties.Environment.Variables[sesConfigurationSetEnv]).toEqual({ Ref: configurationSet });
      expect(stream.Properties.Environment.Variables[emailTransportEnv]).toBe('ses');
      expect(sesStatements(template)).toEqual([
        {
          roles: [{ Ref: consumer.Properties.Role['Fn::GetAtt'][0] }],
          statement: { Effect: 'Allow', Action: ['ses:SendEmail', 'ses:SendRawEmail'], Resource: [identityArn('mail.example.com'), configurationSetArn(configurationSet)] },
        },
      ]);
      expect(consumerId).toBeDefined();
    }
  });

  test.each(['sendInvoice', 'createPortalSession'])('%s queues its email itself: it knows whether emails are on, may queue, and may not send any', (routeId) => {
    const on = routeFunctionOf({ sesIdentity: 'mail.example.com' }, routeId);
    expect(on.variables[emailTransportEnv]).toBe('ses');
    expect(on.variables).toHaveProperty(deliveryQueueUrlEnv);
    expect(on.ses).toEqual([]);
    expect(routeFunctionOf({}, routeId).variables[emailTransportEnv]).toBeUndefined();
  });

  test('the bounce pipeline: the configuration set publishes deliveries, bounces and complaints to the default bus, whose rule invokes the feedback function, which may only read and update items', () => {
    const template = synth({ sesIdentity: 'mail.example.com' });
    const configurationSet = onlyKey(template.findResources('AWS::SES::ConfigurationSet'));
    const destination = Object.values(template.findResources('AWS::SES::ConfigurationSetEventDestination') as Record<string, Resource>);
    expect(destination.map((d) => d.Properties)).toEqual([{
      ConfigurationSetName: { Ref: configurationSet },
      EventDestination: {
        Enabled: true,
        EventBridgeDestination: { EventBusArn: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':events:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':event-bus/default']] } },
        MatchingEventTypes: ['delivery', 'bounce', 'complaint'],
      },
    }]);

    const [feedbackId, feedback] = functionOf(template, emailFeedbackHandler.id);
    const rules = Object.entries(template.findResources('AWS::Events::Rule') as Record<string, Resource>).filter(([, rule]) => rule.Properties.EventPattern?.source?.includes('aws.ses'));
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.ses'], 'detail-type': [...sesFeedbackDetailTypes], detail: { mail: { tags: { 'ses:configuration-set': [{ Ref: configurationSet }] } } },
    });
    expect(rule.Properties.Targets).toEqual([{ Arn: { 'Fn::GetAtt': [feedbackId, 'Arn'] }, Id: 'Target0' }]);
    // Only that rule may invoke it.
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>)
      .filter((p) => JSON.stringify(p.Properties.FunctionName).includes(feedbackId));
    expect(permissions.map((p) => [p.Properties.Principal, p.Properties.SourceArn])).toEqual([['events.amazonaws.com', { 'Fn::GetAtt': [ruleId, 'Arn'] }]]);
    // A report whose handling keeps failing is retried twice, then kept on a dead-letter queue, which is alarmed on.
    const [invokeConfig] = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig') as Record<string, Resource>)
      .filter((c) => c.Properties.FunctionName.Ref === feedbackId);
    const deadLetters = invokeConfig!.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0] as string;
    expect(invokeConfig!.Properties.MaximumRetryAttempts).toBe(emailFeedbackHandler.retryAttempts);
    expect(template.findResources('AWS::SQS::Queue')[deadLetters]).toBeDefined();
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Resource>);
    expect(alarms.some((alarm) => JSON.stringify(alarm.Properties.Dimensions ?? alarm.Properties.Metrics ?? '').includes(deadLetters))).toBe(true);

    // Least privilege: items read and updated (no put, delete, query or scan), the dead-letter queue, its logs, X-Ray; never SES.
    const role = feedback.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)
      .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
    const actions = statements.flatMap((statement) => [statement.Action].flat()).sort();
    expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(statements.find((statement) => [statement.Action].flat().includes('dynamodb:GetItem'))!.Resource).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'Arn'] });
    expect(actions.filter((action) => action.startsWith('sqs:'))).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(statements.find((statement) => [statement.Action].flat().includes('sqs:SendMessage'))!.Resource).toEqual({ 'Fn::GetAtt': [deadLetters, 'Arn'] });
    expect(actions.some((action) => action.startsWith('ses:'))).toBe(false);
  });

  test('without one, no function may send email and none derives any; no configuration set, no SES rule', () => {
    const template = synth();
    expect(sesStatements(template)).toEqual([]);
    expect(template.findResources('AWS::SES::ConfigurationSet')).toEqual({});
    expect(Object.values(template.findResources('AWS::Events::Rule') as Record<string, Resource>).filter((rule) => rule.Properties.EventPattern)).toEqual([]);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>)) {
      expect(fn.Properties.Environment?.Variables?.[emailTransportEnv]).toBeUndefined();
    }
  });

  test('the development routes of npm start (POST /dev/emails/{id}/bounce) are not in the stack', () => {
    const stack = stackOf({ sesIdentity: 'mail.example.com' });
    const routeKeys = [stack, ...stack.routeStacks].flatMap((s) =>
      Object.values(Template.fromStack(s).findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>).map((route) => route.Properties.RouteKey as string));
    expect(routeKeys).toContain('POST /v1/invoices/{id}/send');
    expect(devRoutes.map((route) => route.path)).toEqual(['/dev/emails/{id}/bounce']);
    expect(routeKeys.filter((key) => key.split(' ')[1]!.startsWith('/dev/'))).toEqual([]);
  });
});
