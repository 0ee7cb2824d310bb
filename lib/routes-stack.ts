import { NestedStack, Stack, Validations } from 'aws-cdk-lib';
import { HttpMethod, HttpNoneAuthorizer, HttpRoute, HttpRouteKey, type IHttpApi, type IHttpRouteAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes';
import type { RateLimitSettings } from '../shared/http/rate-limit-settings';
import { routeFunctionPrefix } from '../shared/mcp/route-function-name';
import type { FunctionOperations } from './billing-function';
import type { EventPipeline } from './event-pipeline';
import { routesUsingSigningKey, type Identity } from './identity';
import type { OAuthSignIn } from './oauth-sign-in';
import { routesUsingProviderSecrets, type ProviderSecrets } from './provider-secrets';
import { bindRateLimits } from './rate-limits';
import { RouteFunction } from './route-function';
import { routeTableAccess } from './table-access';

/**
 * Routes per nested stack at most. A route costs 7 resources (function, log group, role, policy, integration, route,
 * permission): 50 routes are 350, under the 400 the infra tests allow a stack and well under CloudFormation's 500,
 * leaving room for a resource or two more per route later (an alarm, a second policy).
 */
export const maxRoutesPerStack = 50;

/** One nested stack's worth of routes: its construct id (`Routes<Tag>`, then `Routes<Tag>2`, …) and its routes. */
export interface RouteGroup {
  name: string;
  tag: string;
  routes: readonly RouteDefinition[];
}

/** `Invoicing entities` → `InvoicingEntities`, `OAuth` → `OAuth`: a tag as a construct id fragment. */
export const pascalCaseTag = (tag: string): string =>
  tag
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * The route table split into nested stacks: one per tag (the route's area), in order of first appearance; an area
 * of more than `maxRoutes` routes is cut, in route-table order, into `Routes<Tag>`, `Routes<Tag>2`, … of `maxRoutes`
 * each. A route's group depends only on its own area, so adding a route to one area leaves every other area's
 * nested stack as it was; appending it at the end of its area's list moves none of that area's routes either.
 */
export const groupRoutes = (routes: readonly RouteDefinition[], maxRoutes = maxRoutesPerStack): RouteGroup[] => {
  if (!Number.isInteger(maxRoutes) || maxRoutes < 1) throw new Error(`groupRoutes: maxRoutes must be a positive integer, not ${maxRoutes}`);
  // Routes in different stacks no longer clash as construct ids: check here what a single scope used to.
  const seen = new Set<string>();
  for (const key of [...routes.map((r) => `id ${r.id}`), ...routes.map((r) => `route ${r.method} ${r.path}`)]) {
    if (seen.has(key)) throw new Error(`groupRoutes: duplicate ${key}`);
    seen.add(key);
  }
  const byTag = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    const area = byTag.get(route.tag);
    if (area) area.push(route);
    else byTag.set(route.tag, [route]);
  }
  const tagByName = new Map<string, string>();
  const groups: RouteGroup[] = [];
  for (const [tag, area] of byTag) {
    const base = `Routes${pascalCaseTag(tag)}`;
    if (base === 'Routes') throw new Error(`groupRoutes: the tag ${JSON.stringify(tag)} has no letter or digit to name a stack by`);
    const other = tagByName.get(base);
    if (other !== undefined) throw new Error(`groupRoutes: the tags ${JSON.stringify(other)} and ${JSON.stringify(tag)} would share the stack ${base}`);
    tagByName.set(base, tag);
    for (let start = 0, chunk = 1; start < area.length; start += maxRoutes, chunk += 1) {
      groups.push({ name: chunk === 1 ? base : `${base}${chunk}`, tag, routes: area.slice(start, start + maxRoutes) });
    }
  }
  // A tag ending in a digit could take a chunk's name (`Customers 2` and the second chunk of `Customers`).
  const names = groups.map((g) => g.name);
  const clash = names.find((name, i) => names.indexOf(name) !== i);
  if (clash !== undefined) throw new Error(`groupRoutes: two groups would be named ${clash}; rename a tag`);
  return groups;
};

export interface RoutesStackProps {
  routes: readonly RouteDefinition[];
  api: IHttpApi;
  /** The parent stack's credential authorizer: every route but a public one gets it. */
  authorizer: IHttpRouteAuthorizer;
  /** The service's identity: its signing key, for the routes that publish or sign with it (routesUsingSigningKey). */
  identity: Identity;
  /** The API's public base URL: the issuer and resource named in 401 challenges. */
  publicUrl: string;
  table: ITable;
  events: EventPipeline;
  /** Ids of the routes allowed to queue webhook deliveries. */
  routesQueueingDeliveries: readonly string[];
  /** Directory that the routes' handlers are relative to (the one holding package.json). */
  projectRoot: string;
  /** The per-workspace rate limits every route enforces; null: off. */
  rateLimits: RateLimitSettings | null;
  operations: FunctionOperations;
  /** The key of the workspaces' payment-provider secrets, for the routes of routesUsingProviderSecrets. */
  providerSecrets: ProviderSecrets;
  /** The upstream OpenID sign-in of the OAuth routes (lib/oauth-sign-in.ts); none when no provider is configured. */
  oauthSignIn?: OAuthSignIn;
  /** The first-party dashboard client's redirect URI (lib/operator-dashboard.ts), known to the authorization route. */
  dashboardRedirectUri?: string;
}

/**
 * A nested stack holding a group of routes: per route its Lambda (function, log group, role, policy) and its API
 * Gateway integration, route and invoke permission. The API, authorizer, table and queue stay in the parent stack;
 * CDK passes the references to them in as the nested stack's parameters.
 */
export class RoutesStack extends NestedStack {
  readonly routes: readonly RouteDefinition[];
  /** Each route's function, by route id. */
  readonly functions = new Map<string, RouteFunction>();

  constructor(scope: Construct, id: string, props: RoutesStackProps) {
    super(scope, id, { description: `Billing API routes: ${id}` });
    const { api, authorizer, table, events, projectRoot, operations } = props;
    this.routes = props.routes;
    // From the parent's name, a literal (a nested stack's own name is known only at deploy time).
    const namePrefix = routeFunctionPrefix(Stack.of(scope).stackName);
    for (const route of props.routes) {
      const routeFunction = new RouteFunction(this, route.id, { route, projectRoot, operations, namePrefix });
      this.functions.set(route.id, routeFunction);
      // From the method and the indexes the route declares: GET handlers only read (DESIGN.md §7).
      routeFunction.bindTable(table, routeTableAccess(route));
      // The rate-limit counter: its settings, and UpdateItem on counter items only (GETs included).
      bindRateLimits(routeFunction.fn, table, props.rateLimits, route.id);
      if (props.routesQueueingDeliveries.includes(route.id)) events.allowQueueing(routeFunction.fn);
      routeFunction.fn.addEnvironment('PUBLIC_API_URL', props.publicUrl);
      const keyUse = routesUsingSigningKey[route.id];
      if (keyUse) props.identity.useSigningKey(routeFunction.fn, keyUse, props.publicUrl);
      props.oauthSignIn?.bind(routeFunction.fn, route);
      if (route.id === 'oauthAuthorize' && props.dashboardRedirectUri) routeFunction.fn.addEnvironment('OAUTH_DASHBOARD_REDIRECT_URIS', props.dashboardRedirectUri);
      const secretsUse = routesUsingProviderSecrets[route.id];
      if (secretsUse) props.providerSecrets.bind(routeFunction.fn, secretsUse);
      // In this stack's scope (not api.addRoutes, which would put the route, integration and permission under the
      // API, in the parent stack).
      const apiRoute = new HttpRoute(this, `${route.id}Route`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${route.id}Integration`, routeFunction.fn),
        // Every route but a public one needs a credential; scopes are checked in the Lambda, not by API Gateway.
        authorizer: route.scope === 'public' ? new HttpNoneAuthorizer() : authorizer,
      });
      if (route.scope === 'public') {
        Validations.of(apiRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: 'A public route (`scope: public`: discovery documents, OAuth endpoints, hosted pages) takes no bearer credential by design; it verifies its own (a code, a signed link), if any.',
        });
      }
    }
  }
}
