import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Node } from 'constructs';
import {
  DEFAULT_RATE_LIMITS, OAUTH_RATE_LIMIT_PARTITION, OAUTH_RATE_LIMITED_ROUTES, RATE_LIMIT_ATTRIBUTES, RATE_LIMIT_PARTITION, rateLimitEnvironment,
  type RateLimitSettings,
} from '../shared/http/rate-limit-settings';

/**
 * Rate limits in the stack (docs/rate-limits.md): the per-workspace limits every route function enforces
 * (shared/http/rate-limit.ts), and the HTTP API stage's own throttling, a backstop for the whole API (all workspaces
 * together), which API Gateway applies before any Lambda runs.
 */
export interface StageThrottle {
  /** Steady requests per second across the whole API. */
  rateLimit: number;
  /** Requests API Gateway lets through at once above the steady rate. */
  burstLimit: number;
}

/**
 * The backstop: far above what the per-workspace limits let one workspace send (20 reads + 5 writes a second), well
 * under the account's default of 10,000 per second, and under Lambda's default 1,000 concurrent executions at the
 * few milliseconds a request takes.
 */
export const DEFAULT_STAGE_THROTTLE: Readonly<StageThrottle> = { rateLimit: 1_000, burstLimit: 2_000 };

export interface RateLimitProps {
  /** Per-workspace limits; null switches the limiter off. Default: context `rateLimits`, else 200 reads / 50 writes per 10 s. */
  perWorkspace?: RateLimitSettings | null;
  /** The stage's throttling. Default: context `apiThrottle`, else DEFAULT_STAGE_THROTTLE. */
  stage?: StageThrottle;
}

export interface ResolvedRateLimits {
  perWorkspace: RateLimitSettings | null;
  stage: StageThrottle;
}

/** A context value given as an object (cdk.json) or as JSON (`-c key='{"reads":500}'`). */
export function contextObject(node: Node, key: string): Record<string, unknown> | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined) return undefined;
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`CDK context "${key}" must be an object`);
  return parsed as Record<string, unknown>;
}

const positive = (what: string, value: unknown, integer: boolean): number => {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) {
    throw new Error(`Rate limits: ${what} must be a positive ${integer ? 'whole ' : ''}number, not ${JSON.stringify(value)}`);
  }
  return value;
};

/**
 * The stack's rate limits: props first, else CDK context (`rateLimits`: `{reads, writes, windowSeconds, enabled}`,
 * `apiThrottle`: `{rateLimit, burstLimit}`; members left out keep their defaults), else the defaults. Synth fails on
 * a value that is not a positive number.
 */
export function resolveRateLimits(node: Node, props: RateLimitProps = {}): ResolvedRateLimits {
  let perWorkspace: RateLimitSettings | null;
  if (props.perWorkspace !== undefined) {
    perWorkspace = props.perWorkspace;
  } else {
    const context = contextObject(node, 'rateLimits') ?? {};
    perWorkspace = context.enabled === false ? null : { ...DEFAULT_RATE_LIMITS, ...(context as Partial<RateLimitSettings>) };
  }
  if (perWorkspace) {
    perWorkspace = {
      reads: positive('reads', perWorkspace.reads, true),
      writes: positive('writes', perWorkspace.writes, true),
      windowSeconds: positive('windowSeconds', perWorkspace.windowSeconds, true),
    };
  }
  const stage = { ...DEFAULT_STAGE_THROTTLE, ...(props.stage ?? (contextObject(node, 'apiThrottle') as Partial<StageThrottle> | undefined)) };
  return {
    perWorkspace,
    stage: { rateLimit: positive('apiThrottle.rateLimit', stage.rateLimit, false), burstLimit: positive('apiThrottle.burstLimit', stage.burstLimit, true) },
  };
}

/** The counter partitions a route's limiter writes: its workspace's, and the OAuth endpoints' service-wide ones. */
export const rateLimitPartitions = (routeId?: string): string[] => [
  `WS#*#${RATE_LIMIT_PARTITION}#*`,
  ...((OAUTH_RATE_LIMITED_ROUTES as readonly string[]).includes(routeId ?? '') ? [`${OAUTH_RATE_LIMIT_PARTITION}#*`] : []),
];

/**
 * What the limiter needs of the table, and nothing more: UpdateItem on counter items only (partition keys
 * `WS#<workspace>#RATELIMIT#…`, and `RATELIMIT#OAUTH#…` for the two OAuth endpoints that count per address and
 * client), touching only the counter's attributes, returning only what it updated. GET functions have no other write
 * right; the others' table grants cover it already, but get it too so a tighter grant of theirs can never break the
 * limiter.
 */
export const rateLimitCounterStatement = (table: ITable, routeId?: string): PolicyStatement =>
  new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': rateLimitPartitions(routeId) },
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RATE_LIMIT_ATTRIBUTES] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
    },
  });

/** A route function's part: the limits as environment variables and, when on, the counter's IAM statement. */
export function bindRateLimits(fn: LambdaFunction, table: ITable, settings: RateLimitSettings | null, routeId?: string): void {
  for (const [name, value] of Object.entries(rateLimitEnvironment(settings))) fn.addEnvironment(name, value);
  if (settings) fn.addToRolePolicy(rateLimitCounterStatement(table, routeId));
}

/** Sets the default stage's throttling (the L2 HttpApi has no option for its default stage's). */
export function throttleStage(api: HttpApi, throttle: StageThrottle): void {
  const stage = api.defaultStage?.node.defaultChild;
  if (!(stage instanceof CfnStage)) throw new Error('throttleStage: the HTTP API has no default stage');
  // Property by property, so other default route settings (metrics, logging) set elsewhere are kept.
  stage.addPropertyOverride('DefaultRouteSettings.ThrottlingRateLimit', throttle.rateLimit);
  stage.addPropertyOverride('DefaultRouteSettings.ThrottlingBurstLimit', throttle.burstLimit);
}
