import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes';
import { lambdaBundling, lambdaEsbuildOptions } from '../../lib/bundling';
import { BillingStack } from '../../lib/billing-stack';
import { routeTagKey } from '../../lib/route-function';
import { tableDefinition } from '../../shared/db/table-definition';

/** Bundling skipped (DESIGN.md §12): synth takes a second instead of one esbuild run per route. */
const context = { 'aws:cdk:bundling-stacks': [], jwtIssuer: 'https://issuer.test/', jwtAudience: 'billing-test' };
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

type Resource = { Properties: Record<string, any> };
let template: Template;
/** Route id → logical id of its Lambda function, found by the tag RouteFunction puts on it. */
const functionIdByRoute = new Map<string, string>();

/** The logical id of the one resource in `resources`. */
const onlyId = (resources: Record<string, unknown>): string => {
  const ids = Object.keys(resources);
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

/** Every IAM action granted to a function's role, across the policies attached to it. */
const actionsOf = (functionId: string): string[] => {
  const fn = template.findResources('AWS::Lambda::Function')[functionId] as Resource;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
    (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })),
  );
  return policies.flatMap((p) => (p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => s.Action));
};

beforeAll(() => {
  const app = new App({ context });
  template = Template.fromStack(new BillingStack(app, 'Test'));
  for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>)) {
    const tag = (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === routeTagKey);
    if (tag) functionIdByRoute.set(tag.Value, id);
  }
});

describe('functions', () => {
  test('one Lambda per route-table entry, and no other Lambda', () => {
    template.resourceCountIs('AWS::Lambda::Function', routes.length);
    expect([...functionIdByRoute.keys()].sort()).toEqual(routes.map((r) => r.id).sort());
  });

  test('every function: Node 22 on arm64, 512 MB, 10 s, TABLE_NAME, a log group kept one month', () => {
    const tableId = onlyId(template.findResources('AWS::DynamoDB::Table'));
    template.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Timeout: 10,
      Handler: 'index.handler',
      Environment: { Variables: { TABLE_NAME: { Ref: tableId } } },
      LoggingConfig: { LogGroup: { Ref: Match.anyValue() } },
    });
    template.resourceCountIs('AWS::Logs::LogGroup', routes.length);
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  test.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: table access matches the method', (_key, route) => {
    const actions = actionsOf(functionIdByRoute.get(route.id)!);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const action of writeActions) {
      if (route.method === 'GET') expect(actions).not.toContain(action);
      else expect(actions).toContain(action);
    }
  });
});

describe('HTTP API', () => {
  test('a JWT authorizer with issuer and audience from context', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Issuer: context.jwtIssuer, Audience: [context.jwtAudience] },
    });
  });

  test('one route per entry, JWT-protected, integrated with that route\'s function', () => {
    const authorizerId = onlyId(template.findResources('AWS::ApiGatewayV2::Authorizer'));
    const apiRoutes = Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>);
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Resource>;
    expect(apiRoutes.map((r) => r.Properties.RouteKey).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());

    for (const route of routes) {
      const apiRoute = apiRoutes.find((r) => r.Properties.RouteKey === `${route.method} ${route.path}`)!;
      expect(apiRoute.Properties).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } });
      const integrationId = apiRoute.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(integrations[integrationId]!.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [functionIdByRoute.get(route.id), 'Arn'] },
      });
    }
  });

  test('outputs the API URL and the table name', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', {});
  });

  test('synth fails clearly without the JWT context', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], jwtAudience: 'x' } });
    expect(() => new BillingStack(app, 'NoIssuer')).toThrow(/missing CDK context "jwtIssuer"/);
  });
});

describe('table', () => {
  test('keys, indexes, stream, TTL, PITR, on-demand, from tableDefinition', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const keyAttributes = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
    ];
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith(keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
      GlobalSecondaryIndexes: tableDefinition.globalIndexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: 'attributes' in i.projection
          ? { ProjectionType: i.projection.type, NonKeyAttributes: [...i.projection.attributes] }
          : { ProjectionType: i.projection.type },
      })),
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  test('is retained when the stack is deleted', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

test('CDK bundling and the esbuild options agree: ESM, minified, SDK bundled, createRequire banner', () => {
  expect(lambdaBundling).toMatchObject({
    format: lambdaEsbuildOptions.format,
    minify: true,
    target: lambdaEsbuildOptions.target,
    mainFields: lambdaEsbuildOptions.mainFields,
    banner: lambdaEsbuildOptions.banner.js,
    externalModules: [],
  });
  expect(lambdaEsbuildOptions.banner.js).toContain('createRequire(import.meta.url)');
});
