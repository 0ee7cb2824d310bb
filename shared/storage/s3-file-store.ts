import type { S3Client } from '@aws-sdk/client-s3';
import { isFileKey, type FileStore } from './file-store';

/**
 * The SDK, imported on first use: it is a lazy package (lib/bundling.ts), kept out of the bundles of the many
 * functions that may read a file but mostly do not. A static import would be hoisted into every bundle's start.
 */
const s3Sdk = () => import('@aws-sdk/client-s3');

/** Files in the stack's S3 bucket (lib/files-bucket.ts), encrypted at rest by the bucket's default. */
export function s3FileStore(bucket: string): FileStore {
  let client: S3Client | undefined;
  const s3 = async () => {
    const sdk = await s3Sdk();
    client ??= new sdk.S3Client({});
    return { sdk, client };
  };
  const checked = (key: string): string => {
    if (!isFileKey(key)) throw new Error(`Not a file key: ${JSON.stringify(key)}`);
    return key;
  };
  return {
    async put(key, body, contentType) {
      const { sdk, client } = await s3();
      await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: checked(key), Body: body, ContentType: contentType }));
    },
    async get(key) {
      const { sdk, client } = await s3();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: checked(key) }));
        const body = Buffer.from(await object.Body!.transformToByteArray());
        return { body, contentType: object.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
  };
}
