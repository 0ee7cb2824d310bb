import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods, CachePolicy, Distribution, Function as CloudFrontFunction, FunctionCode, FunctionEventType, FunctionRuntime, HeadersFrameOption,
  HeadersReferrerPolicy, HttpVersion, OriginProtocolPolicy, OriginRequestPolicy, ResponseHeadersPolicy, ViewerProtocolPolicy, type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { DASHBOARD_CLIENT_ID } from '../shared/domain/oauth/first-party';
import { buildDashboard } from './dashboard-build';
import { DASHBOARD_CSP } from './dashboard-headers';

/** Paths of the API the dashboard calls, forwarded by the distribution: the dashboard talks to its own origin only. */
export const API_PATHS = ['/v1/*', '/v2/*', '/oauth/token', '/oauth/revoke'] as const;

/**
 * Paths under /dashboard/ that name no file are the dashboard's own screens: CloudFront answers them with the page
 * (deep links, reloads), as `npm start` does (lib/local/dashboard-files.ts).
 */
const SCREEN_ROUTES = `function handler(event) {
  var request = event.request;
  if (request.uri === '/' || request.uri === '/dashboard') return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: '/dashboard/' } } };
  if (request.uri.indexOf('/dashboard/') === 0 && request.uri.split('/').pop().indexOf('.') < 0) request.uri = '/dashboard/index.html';
  return request;
}`;

/**
 * The operators' dashboard on AWS (docs/dashboard.md): its build in a private bucket, read by CloudFront through
 * origin access control only; every answer with the dashboard's CSP, HSTS, nosniff, no framing; the API's paths
 * forwarded to API Gateway uncached (so the dashboard needs no CORS and its CSP allows its own origin only). The
 * first-party OAuth client's redirect URI is the distribution's (`redirectUri`, given to the authorization routes).
 */
export class OperatorDashboard extends Construct {
  readonly distribution: Distribution;
  readonly url: string;
  readonly redirectUri: string;

  constructor(scope: Construct, id: string, props: { api: IHttpApi; publicUrl: string }) {
    super(scope, id);
    const bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'The bucket holds the dashboard\'s public build only (no data), written by the deployment and read by CloudFront alone; access logs would record nothing worth keeping.',
    });

    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Operators dashboard: strict CSP, HSTS, nosniff, no framing, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DASHBOARD_CSP, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });
    const screens = new CloudFrontFunction(this, 'ScreenRoutes', { code: FunctionCode.fromInline(SCREEN_ROUTES), runtime: FunctionRuntime.JS_2_0 });

    // The API's host name: its endpoint is https://<id>.execute-api.<region>.amazonaws.com.
    const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY });
    const toApi: BehaviorOptions = {
      origin: apiOrigin,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${Stack.of(this).stackName}: operators dashboard`,
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: screens, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: Object.fromEntries(API_PATHS.map((path) => [path, toApi])),
    });
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'Operators sign in from wherever they work; the API it fronts is not geo-restricted either.' },
      { id: 'AwsSolutions-CFR2', reason: 'Static files and the API, whose own limits (API Gateway throttling, per-workspace rate limits) apply behind it; a WAF is the operator\'s choice (docs/dashboard.md).' },
      { id: 'AwsSolutions-CFR3', reason: 'The API\'s access log records every API call made through the dashboard; the static files carry no data.' },
      { id: 'AwsSolutions-CFR4', reason: 'The default *.cloudfront.net certificate: set a custom domain and certificate (TLS 1.2 minimum) to change it (docs/dashboard.md).' },
    );

    this.url = `https://${this.distribution.distributionDomainName}`;
    this.redirectUri = `${this.url}/dashboard/callback`;
    const build = buildDashboard(mkdtempSync(join(tmpdir(), 'operator-dashboard-')));
    new BucketDeployment(this, 'Deployment', {
      destinationBucket: bucket,
      destinationKeyPrefix: 'dashboard/',
      sources: [Source.asset(build), Source.jsonData('config.json', { apiUrl: props.publicUrl, clientId: DASHBOARD_CLIENT_ID })],
      distribution: this.distribution,
      distributionPaths: ['/dashboard/*'],
      memoryLimit: 256,
    });
    // The copying function is one per stack (a singleton beside the stack's other constructs), not under `deployment`.
    const copier = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))!;
    const copierReason = 'CDK\'s BucketDeployment function: it copies the build from the CDK asset bucket into this bucket (the object actions CDK grants) and invalidates the distribution (CloudFront invalidations take no resource).';
    const bucketArn = `<${Stack.of(this).getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn>/*`;
    const copierFindings = [
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action) => `IAM5[Action::${action}]`),
      'IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
      `IAM5[Resource::${bucketArn}]`,
      'IAM5[Resource::*]',
      'L1',
    ];
    Validations.of(copier).acknowledge(...copierFindings.map((finding) => ({ id: `AwsSolutions-${finding}`, reason: copierReason })));
  }
}
