import { App } from 'aws-cdk-lib';
import { BillingStack } from '../lib/billing-stack';

const app = new App();
const { CDK_DEFAULT_ACCOUNT: account, CDK_DEFAULT_REGION: region } = process.env;
new BillingStack(app, 'BillingApi', {
  // Environment-agnostic unless the CDK CLI resolved an account and region.
  env: account && region ? { account, region } : undefined,
  description: 'Billing API: HTTP API, one Lambda per route, one DynamoDB table',
});
app.synth();
