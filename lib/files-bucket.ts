import { Duration, Names, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';

/**
 * The bucket behind shared/storage/file-store.ts: entities' logos and exports, each under `ws/<workspace>/`.
 * Private (no public access, TLS only, owner-enforced), encrypted with the stack's key when it has one, kept when the
 * stack goes (exports are accounting records), versioned so an overwritten file can be brought back.
 */
export class FilesBucket extends Construct {
  readonly bucket: IBucket;

  constructor(scope: Construct, id: string, props: { encryptionKey?: IKey }) {
    super(scope, id);
    const bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(props.encryptionKey ? { encryption: BucketEncryption.KMS, encryptionKey: props.encryptionKey, bucketKeyEnabled: true } : { encryption: BucketEncryption.S3_MANAGED }),
      // Old versions of replaced files are kept a while for recovery, not forever.
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(90), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Server access logs would need a second bucket for files only the stack\'s functions read and write; CloudTrail data events cover it where an operator wants them (docs/operations.md).',
    });
    this.bucket = bucket;
  }
}

/**
 * A function that may read and write workspace files: the bucket's name (`FILES_BUCKET`), `s3:GetObject` and
 * `s3:PutObject` on `ws/*` only (no listing, no deletion), and the bucket's key when it has one.
 */
export function bindFiles(owner: IConstruct, fn: IFunction & { addEnvironment(key: string, value: string): unknown }, bucket: IBucket): void {
  fn.addEnvironment('FILES_BUCKET', bucket.bucketName);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [bucket.arnForObjects('ws/*')] }));
  bucket.encryptionKey?.grantEncryptDecrypt(fn);
  const resource = bucket.node.defaultChild as CfnBucket;
  // The ARN as cdk-nag names it: the bucket's own in its stack, or the parameter a nested stack receives it by.
  const names = [`<${Stack.of(bucket).getLogicalId(resource)}.Arn>`, `<referenceto${Names.uniqueId(resource)}Arn>`];
  // On the function's owner, whose subtree holds the role's policy as well as the function.
  for (const name of names) {
    Validations.of(owner).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${name}/ws/*]`,
      reason: 'Workspace files are keyed ws/<workspace>/…: the prefix is the narrowest resource a function serving every workspace can have.',
    });
  }
}
