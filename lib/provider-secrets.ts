import { RemovalPolicy } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/** What a route does with a workspace's payment-provider secrets: `seal` them (connect), `open` them (call Stripe). */
export type ProviderSecretsUse = 'seal' | 'open';

/**
 * The routes that may use the provider secrets key, and how; no other route function gets it. Besides them, the
 * due-work worker opens them (automatic collection charges through Stripe).
 */
export const routesUsingProviderSecrets: Readonly<Record<string, ProviderSecretsUse>> = {
  connectStripe: 'seal',
  createPaymentMethod: 'open',
  createSetupIntent: 'open',
  // Deleting a Stripe method detaches it at Stripe (the API's route and the portal's "remove").
  deletePaymentMethod: 'open',
  portalRemoveCard: 'open',
  chargeInvoice: 'open',
  invoicePagePay: 'open',
  // The pages with Stripe connected: the invoice page reads a pending 3-D Secure PaymentIntent, its return settles
  // it, the portal makes the SetupIntent of its "add a card" and saves the card.
  invoicePage: 'open',
  invoicePageReturn: 'open',
  portalPage: 'open',
  portalAddCard: 'open',
  stripeWebhook: 'open',
  createCreditNote: 'open',
  syncStripe: 'open',
};

/**
 * The KMS key that encrypts the secrets workspaces give the service for their payment providers (a Stripe secret key,
 * a webhook signing secret), with the workspace as encryption context (shared/domain/payment-providers/secret-box.ts).
 * The table holds ciphertext only.
 */
export class ProviderSecrets extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Encrypts the payment providers\' secrets workspaces connect (Stripe keys, webhook secrets)',
      enableKeyRotation: true,
      // Deleting it would make every connected workspace's keys unreadable: they would have to connect again.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Gives the function the key's id and Encrypt (`seal`) or Decrypt (`open`) on it alone. */
  bind(fn: IFunction & { addEnvironment(name: string, value: string): unknown }, use: ProviderSecretsUse): void {
    fn.addEnvironment('PROVIDER_SECRETS_KEY_ID', this.key.keyArn);
    this.key.grant(fn, use === 'seal' ? 'kms:Encrypt' : 'kms:Decrypt');
  }
}
