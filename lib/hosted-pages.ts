import { Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** What every function needs to sign and check the hosted pages' links (docs/hosted-pages.md). */
export interface PagesSettings {
  secret: ISecret;
  /** `PUBLIC_PAGES_URL`: where the links point (the API's URL + `/pages`, or the `publicPagesUrl` context). */
  url: string;
  /** `PAGES_FRAME_ANCESTORS`: the CSP `frame-ancestors` of the pages (context `pagesFrameAncestors`, default none). */
  frameAncestors: string;
}

/**
 * The hosted pages' share of the stack: the secret their capability links are signed with (created by the stack,
 * read once per Lambda instance) and their base URL, which is also a stack output.
 */
export class HostedPages extends Construct {
  readonly settings: PagesSettings;

  constructor(scope: Construct, id: string, props: { api: IHttpApi }) {
    super(scope, id);
    const secret = new Secret(this, 'LinkSecret', {
      description: 'Signs the hosted pages\' capability links (invoice, quote, portal). Changing it invalidates every link given out.',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      // Secrets Manager's own key: the stack's key may live in another stack, whose key policy would then have to
      // name every function role of this one (a dependency cycle).
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'A rotation would invalidate every invoice and quote link customers hold (links live up to 180 days after a due date); it is rotated by hand when compromised (docs/hosted-pages.md).',
    });
    const node = Stack.of(this).node;
    const url = (node.tryGetContext('publicPagesUrl') as string | undefined) ?? `${props.api.apiEndpoint}/pages`;
    const frameAncestors = (node.tryGetContext('pagesFrameAncestors') as string | undefined) ?? "'none'";
    this.settings = { secret, url, frameAncestors };
  }
}

/** A function that renders documents (their `public_url`, a quote's `url`) or pages: the URL, the secret's ARN, read access. */
export function bindPages(fn: IFunction & { addEnvironment(key: string, value: string): unknown }, pages: PagesSettings): void {
  fn.addEnvironment('PUBLIC_PAGES_URL', pages.url);
  fn.addEnvironment('PAGES_SECRET_ARN', pages.secret.secretArn);
  fn.addEnvironment('PAGES_FRAME_ANCESTORS', pages.frameAncestors);
  pages.secret.grantRead(fn);
}
