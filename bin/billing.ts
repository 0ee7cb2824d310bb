import { App } from 'aws-cdk-lib';
import { BillingStack } from '../lib/billing-stack';

// CDK's built-in template validation (a cfn-lint pass, warnings only here) takes ~6 s of a synth's CPU, mostly starting
// its engine; npm test runs it, as errors, on the default stack and the one with every option on
// (test/infra/resolved-sizes.test.ts), so `cdk synth` and `cdk deploy` skip it.
const app = new App({ builtinCloudFormationValidation: false });
const { CDK_DEFAULT_ACCOUNT: account, CDK_DEFAULT_REGION: region } = process.env;
new BillingStack(app, 'BillingApi', {
  // Environment-agnostic unless the CDK CLI resolved an account and region.
  env: account && region ? { account, region } : undefined,
  description: 'Billing API: HTTP API, one Lambda per route, one DynamoDB table',
});
app.synth();
