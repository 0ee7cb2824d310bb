/**
 * A template's references resolved to the longest values AWS could give them, for checking size limits (Lambda's
 * 4 KB environment, IAM's policy size) before CloudFormation does. Each resource type and attribute the stack refers
 * to is listed; one that is not throws, so a new kind of reference must say how long it can get.
 */
type Json = Record<string, any>;

/** The longest partition (`aws-us-gov`), region (14 characters, e.g. ap-southeast-7) and URL suffix (`amazonaws.com.cn`). */
export const worstPseudo: Record<string, string> = {
  'AWS::Partition': 'aws-us-gov',
  'AWS::Region': 'ap-southeast-7',
  'AWS::AccountId': '123456789012',
  'AWS::URLSuffix': 'amazonaws.com.cn',
  'AWS::StackName': 's'.repeat(128),
  'AWS::StackId': `arn:aws-us-gov:cloudformation:ap-southeast-7:123456789012:stack/${'s'.repeat(128)}/${'0'.repeat(36)}`,
};
const { 'AWS::Partition': partition, 'AWS::Region': region, 'AWS::AccountId': account, 'AWS::URLSuffix': urlSuffix } = worstPseudo;
const arn = (service: string, resource: string, global = false) => `arn:${partition}:${service}:${global ? '' : region}:${account}:${resource}`;
const name = (length: number) => 'n'.repeat(length);

/** What `Ref` gives, by resource type, at its longest (names CloudFormation generates are bounded by the service's limit). */
const refs: Record<string, string> = {
  'AWS::Lambda::Function': name(64),
  'AWS::DynamoDB::Table': name(255),
  'AWS::SQS::Queue': `https://sqs.${region}.${urlSuffix}/${account}/${name(80)}`,
  'AWS::SNS::Topic': arn('sns', name(256)),
  'AWS::KMS::Key': `mrk-${'0'.repeat(32)}`,
  'AWS::SecretsManager::Secret': arn('secretsmanager', `secret:${name(512)}-AbCdEf`),
  'AWS::SSM::Parameter': name(2048),
  'AWS::ApiGatewayV2::Api': name(10),
  'AWS::ApiGatewayV2::Authorizer': name(10),
  'AWS::ApiGatewayV2::Stage': name(128),
  'AWS::IAM::Role': name(64),
  'AWS::Logs::LogGroup': name(512),
  'AWS::Events::Rule': name(64),
  /** SES allows 64 letters, digits, `-` and `_`. */
  'AWS::SES::ConfigurationSet': name(64),
  /** Bucket names are at most 63 characters. */
  'AWS::S3::Bucket': name(63),
};

/** What `Fn::GetAtt` gives, by resource type and attribute, at its longest. */
const attributes: Record<string, Record<string, string>> = {
  'AWS::Lambda::Function': { Arn: arn('lambda', `function:${name(64)}`) },
  'AWS::DynamoDB::Table': { Arn: arn('dynamodb', `table/${name(255)}`), StreamArn: arn('dynamodb', `table/${name(255)}/stream/2026-01-01T00:00:00.000`) },
  'AWS::SQS::Queue': { Arn: arn('sqs', name(80)), QueueName: name(80), QueueUrl: refs['AWS::SQS::Queue']! },
  'AWS::KMS::Key': { Arn: arn('kms', `key/${refs['AWS::KMS::Key']}`), KeyId: refs['AWS::KMS::Key']! },
  'AWS::ApiGatewayV2::Api': { ApiEndpoint: `https://${name(10)}.execute-api.${region}.${urlSuffix}`, ApiId: name(10) },
  'AWS::IAM::Role': { Arn: `arn:${partition}:iam::${account}:role/${name(64)}`, RoleId: name(128) },
  'AWS::Logs::LogGroup': { Arn: arn('logs', `log-group:${name(512)}:*`) },
  'AWS::SNS::Topic': { TopicArn: refs['AWS::SNS::Topic']!, TopicName: name(256) },
  'AWS::SecretsManager::Secret': { Id: refs['AWS::SecretsManager::Secret']! },
  'AWS::S3::Bucket': { Arn: `arn:${partition}:s3:::${name(63)}` },
  /** `d` and 13 letters or digits under cloudfront.net (a distribution's default domain). */
  'AWS::CloudFront::Distribution': { DomainName: `d${name(13)}.cloudfront.net` },
};

const typeOf = (resources: Json, id: string): string => {
  const type = resources[id]?.Type as string | undefined;
  if (!type) throw new Error(`worst case: no resource ${id}`);
  return type;
};

function ref(target: string, resources: Json): string {
  if (target in worstPseudo) return worstPseudo[target]!;
  if (target.startsWith('AWS::')) throw new Error(`worst case: no longest value for ${target}`);
  const type = typeOf(resources, target);
  // A name the template sets itself is as long as it is.
  const given = resources[target].Properties?.FunctionName ?? resources[target].Properties?.TableName;
  if (typeof given === 'string') return given;
  const value = refs[type];
  if (value === undefined) throw new Error(`worst case: no longest Ref for ${type} (${target})`);
  return value;
}

function getAtt(target: string, attribute: string, resources: Json): string {
  const type = typeOf(resources, target);
  const value = attributes[type]?.[attribute];
  if (value === undefined) throw new Error(`worst case: no longest ${type}.${attribute} (${target})`);
  const given = resources[target].Properties?.FunctionName;
  return type === 'AWS::Lambda::Function' && attribute === 'Arn' && typeof given === 'string' ? arn('lambda', `function:${given}`) : value;
}

/** `value` with every intrinsic resolved to its longest value; literals as they are. */
export function resolveWorstCase(value: unknown, resources: Json): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveWorstCase(v, resources));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Json);
  if (entries.length === 1) {
    const [fn, args] = entries[0]!;
    if (fn === 'Ref') return ref(args as string, resources);
    if (fn === 'Fn::GetAtt') {
      const [target, attribute] = (typeof args === 'string' ? args.split('.') : args) as [string, string];
      return getAtt(target, attribute, resources);
    }
    if (fn === 'Fn::Join') {
      const [separator, parts] = args as [string, unknown[]];
      return (resolveWorstCase(parts, resources) as string[]).join(separator);
    }
    if (fn === 'Fn::Sub') {
      const [text, variables] = (typeof args === 'string' ? [args, {}] : args) as [string, Json];
      return text.replace(/\$\{([^}]+)\}/g, (_, reference: string) => {
        if (reference in variables) return String(resolveWorstCase(variables[reference], resources));
        const [target, attribute] = reference.split('.') as [string, string | undefined];
        return attribute ? getAtt(target, attribute, resources) : ref(target, resources);
      });
    }
    if (fn === 'Fn::Select') {
      const [index, list] = args as [number, unknown];
      return (resolveWorstCase(list, resources) as unknown[])[index];
    }
    if (fn === 'Fn::Split') {
      const [separator, text] = args as [string, unknown];
      return String(resolveWorstCase(text, resources)).split(separator);
    }
    if (fn.startsWith('Fn::') || fn === 'Condition') throw new Error(`worst case: unsupported ${fn}`);
  }
  return Object.fromEntries(entries.map(([key, sub]) => [key, resolveWorstCase(sub, resources)]));
}
