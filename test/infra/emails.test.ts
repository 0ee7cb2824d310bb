import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { BillingStack } from '../../lib/billing-stack';
import { deliveryConsumer, deliveryQueueUrlEnv, emailTransportEnv, streamHandler, workerTagKey } from '../../lib/event-pipeline';
import { routeTagKey } from '../../lib/route-function';

/** Bundling skipped (DESIGN.md §12). */
const synth = (props: { sesIdentity?: string } = {}, context: Record<string, unknown> = {}): Template =>
  Template.fromStack(new BillingStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Test', props));

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
function routeFunctionOf(props: { sesIdentity?: string }, routeId: string) {
  const stack = new BillingStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Test', props);
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

describe('emails on AWS', () => {
  test('with an SES identity, only the delivery consumer may send, and only from that identity; the stream handler derives emails', () => {
    for (const template of [synth({ sesIdentity: 'mail.example.com' }), synth({}, { sesIdentity: 'mail.example.com' })]) {
      const [consumerId, consumer] = functionOf(template, deliveryConsumer.id);
      const [, stream] = functionOf(template, streamHandler.id);
      expect(consumer.Properties.Environment.Variables[emailTransportEnv]).toBe('ses');
      expect(stream.Properties.Environment.Variables[emailTransportEnv]).toBe('ses');
      expect(sesStatements(template)).toEqual([
        {
          roles: [{ Ref: consumer.Properties.Role['Fn::GetAtt'][0] }],
          statement: { Effect: 'Allow', Action: ['ses:SendEmail', 'ses:SendRawEmail'], Resource: identityArn('mail.example.com') },
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

  test('without one, no function may send email and none derives any', () => {
    const template = synth();
    expect(sesStatements(template)).toEqual([]);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function') as Record<string, Resource>)) {
      expect(fn.Properties.Environment?.Variables?.[emailTransportEnv]).toBeUndefined();
    }
  });
});
