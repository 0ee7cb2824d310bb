import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Queue, QueueEncryption, type QueueProps } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * A queue of the stack: encrypted (SSE-KMS with the stack's key when it has one, else SSE-SQS) and reachable over TLS
 * only, whatever else `props` say.
 */
export function secureQueue(scope: Construct, id: string, encryptionKey: IKey | undefined, props: QueueProps = {}): Queue {
  const encryption = encryptionKey ? { encryption: QueueEncryption.KMS, encryptionMasterKey: encryptionKey } : { encryption: QueueEncryption.SQS_MANAGED };
  return new Queue(scope, id, { ...props, ...encryption, enforceSSL: true });
}
