import { fileURLToPath } from 'node:url';
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { routes } from '../functions/routes';
import { tableDefinition } from '../shared/db/table-definition';
import { EventPipeline } from './event-pipeline';
import { RouteFunction } from './route-function';
import { Scheduler } from './scheduler';

/** The project root: handler paths in the route table are relative to it. */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The routes that queue webhook deliveries (a re-send): the only route functions allowed to send to SQS. */
export const routesQueueingDeliveries: readonly string[] = ['retryWebhookMessage'];

/** The billing API, built from the route table (functions/routes.ts) and the table definition. */
export class BillingStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    const table = new Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The table holds the ledger: never delete it with the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDefinition.globalIndexes) {
      const { projection } = index;
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType[projection.type],
        nonKeyAttributes: 'attributes' in projection ? [...projection.attributes] : undefined,
      });
    }

    // DESIGN.md §6: the stream → events and messages → delivery jobs on SQS → signed POSTs.
    const events = new EventPipeline(this, 'Events', { table, projectRoot });
    new Scheduler(this, 'Scheduler', { table, projectRoot });

    const authorizer = new HttpJwtAuthorizer('JwtAuthorizer', this.requiredContext('jwtIssuer'), {
      jwtAudience: this.requiredContext('jwtAudience').split(',').map((a) => a.trim()),
      identitySource: ['$request.header.Authorization'],
    });
    const api = new HttpApi(this, 'HttpApi', { apiName: `${this.stackName}-http` });

    const unknownRoutes = routesQueueingDeliveries.filter((id) => !routes.some((route) => route.id === id));
    if (unknownRoutes.length > 0) throw new Error(`BillingStack: routesQueueingDeliveries names unknown routes: ${unknownRoutes.join(', ')}`);

    for (const route of routes) {
      const routeFunction = new RouteFunction(this, route.id, { route, projectRoot });
      // GET handlers only read (DESIGN.md §7): give them no write permission at all.
      routeFunction.bindTable(table, route.method === 'GET' ? 'read' : 'readWrite');
      if (routesQueueingDeliveries.includes(route.id)) events.allowQueueing(routeFunction.fn);
      api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.id}Integration`, routeFunction.fn),
        // Every route needs a token; scopes are checked in the Lambda, not by API Gateway.
        authorizer,
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'DeliveryQueueName', { value: events.deliveryQueue.queueName });
    new CfnOutput(this, 'DeliveryDeadLetterQueueName', { value: events.deliveryDeadLetterQueue.queueName });
    new CfnOutput(this, 'StreamFailureQueueName', { value: events.streamFailureQueue.queueName });
  }

  /** A CDK context value that synth cannot do without (set in cdk.json or with `-c key=value`). */
  private requiredContext(key: string): string {
    const value: unknown = this.node.tryGetContext(key);
    if (typeof value !== 'string' || value.trim() === '') {
      throw new Error(`BillingStack: missing CDK context "${key}"; set it in cdk.json or pass -c ${key}=...`);
    }
    return value;
  }
}
