/**
 * The operators' dashboard on AWS (lib/operator-dashboard.ts, docs/dashboard.md): a private bucket read through
 * origin access control, a distribution whose every dashboard answer carries the CSP and security headers, the
 * API's paths forwarded uncached, the build and its config deployed, and the first-party OAuth client's redirect
 * URI given to the authorization route. cdk-nag is test/infra/nag.test.ts.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { BillingStack } from '../../lib/billing-stack';
import { DASHBOARD_CSP } from '../../lib/dashboard-headers';
import { API_PATHS } from '../../lib/operator-dashboard';
import { routeTagKey } from '../../lib/route-function';
import { flattenTemplates, stackTemplates, testApp } from './stack-templates';

let template: Template;

beforeAll(() => {
  template = flattenTemplates(stackTemplates(new BillingStack(testApp(), 'Test')));
}, 120_000);

type Resource = { Properties: Record<string, any> };
const only = (type: string): Resource => {
  const found = Object.values(template.findResources(type)) as Resource[];
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('the operators’ dashboard stack', () => {
  test('keeps its files in a private, encrypted bucket that only the distribution reads, through origin access control', () => {
    const bucket = Object.entries(template.findResources('AWS::S3::Bucket')).find(([id]) => id.startsWith('OperatorDashboardFiles'))!;
    expect(bucket[1].Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    expect(only('AWS::CloudFront::OriginAccessControl').Properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' });
    const policy = JSON.stringify(Object.values(template.findResources('AWS::S3::BucketPolicy')).map((p) => p.Properties));
    expect(policy).toContain('cloudfront.amazonaws.com');
    expect(policy).toContain('AWS:SourceArn');
  });

  test('answers with the CSP, HSTS, nosniff, no framing and no referrer', () => {
    const headers = only('AWS::CloudFront::ResponseHeadersPolicy').Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers).toEqual({
      ContentSecurityPolicy: { ContentSecurityPolicy: DASHBOARD_CSP, Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31_536_000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
  });

  test('serves the dashboard over https with its screens routed to the page, and forwards the API uncached', () => {
    const config = only('AWS::CloudFront::Distribution').Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      ResponseHeadersPolicyId: expect.anything(),
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: expect.anything() }],
    });
    expect(config.CacheBehaviors.map((b: { PathPattern: string }) => b.PathPattern).sort()).toEqual([...API_PATHS].sort());
    for (const behavior of config.CacheBehaviors) {
      expect(behavior).toMatchObject({
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
        OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
      });
    }
    const code = only('AWS::CloudFront::Function').Properties.FunctionCode as string;
    const route = new Function('event', `${code}\nreturn handler(event);`) as (event: unknown) => { uri?: string; statusCode?: number };
    const request = (uri: string) => route({ request: { uri } });
    expect(request('/dashboard/customers/cus_1').uri).toBe('/dashboard/index.html');
    expect(request('/dashboard/app.js').uri).toBe('/dashboard/app.js');
    expect(request('/').statusCode).toBe(302);
  });

  test('deploys the build and its config under dashboard/, invalidating the distribution', () => {
    const deployment = only('Custom::CDKBucketDeployment').Properties;
    expect(deployment).toMatchObject({ DestinationBucketKeyPrefix: 'dashboard/', DistributionPaths: ['/dashboard/*'] });
    expect(deployment.SourceObjectKeys).toHaveLength(2);
    // config.json: the API's URL, filled in at deploy time.
    expect(JSON.stringify(deployment.SourceMarkers)).toContain('"HttpApiF5A9A8A7","ApiEndpoint"');
  });

  test('gives the authorization route, and no other, the first-party client’s redirect URI on the distribution', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as Resource[];
    const holders = functions.filter((fn) => fn.Properties.Environment?.Variables?.OAUTH_DASHBOARD_REDIRECT_URIS);
    expect(holders.map((fn) => fn.Properties.Tags.find((t: { Key: string }) => t.Key === routeTagKey).Value)).toEqual(['oauthAuthorize']);
    const uri = JSON.stringify(holders[0]!.Properties.Environment.Variables.OAUTH_DASHBOARD_REDIRECT_URIS);
    expect(uri).toMatch(/OperatorDashboardDistribution.*DomainName/);
    expect(uri).toContain('/dashboard/callback');
  });

  test('is left out with the context operatorDashboard=false', () => {
    const without = flattenTemplates(stackTemplates(new BillingStack(testApp({ operatorDashboard: 'false' }), 'Test')));
    expect(Object.keys(without.findResources('AWS::CloudFront::Distribution'))).toEqual([]);
  });
});
