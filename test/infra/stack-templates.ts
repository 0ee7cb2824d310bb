import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { BillingStack } from '../../lib/billing-stack';

type Json = Record<string, any>;

/**
 * The app of an infra test: bundling skipped (DESIGN.md §12: a synth takes seconds instead of an esbuild run per
 * route), and without CDK's built-in CloudFormation validation, whose engine takes ~8 s of CPU to start in every test
 * file and whose findings are only printed. resolved-sizes.test.ts runs it, and fails on what it finds, on the
 * default stack and on the one with every option on (`validated`).
 */
export const testApp = (context: Record<string, unknown> = {}, { validated = false } = {}): App =>
  new App({ context: { 'aws:cdk:bundling-stacks': [], ...context }, builtinCloudFormationValidation: validated });

/** What CDK's CloudFormation validation found in an app made `validated` (its report in the cloud assembly), acknowledged findings left out. */
export const validationFindings = (app: App): string[] => {
  const report = JSON.parse(readFileSync(join(app.synth().directory, 'validation-report.json'), 'utf8')) as Json;
  return (report.pluginReports as Json[]).flatMap((plugin) =>
    (plugin.violations as Json[]).map((v) => `${v.ruleName} ${v.description}: ${(v.violatingConstructs as Json[]).map((c) => c.constructPath).join(', ')}`),
  );
};

/** One synthesized stack: the parent's or a nested stack's template, as CloudFormation receives it. */
export interface StackTemplate {
  /** The construct id: the parent's, or `Routes<Tag>` for a nested stack. */
  name: string;
  template: Template;
  /** For a nested stack: the logical id of its AWS::CloudFormation::Stack resource in the parent. */
  resourceId?: string;
}

/** The parent's template and each nested stack's, the parent first. */
export const stackTemplates = (stack: BillingStack): StackTemplate[] => [
  { name: stack.node.id, template: Template.fromStack(stack) },
  ...stack.routeStacks.map((nested) => ({
    name: nested.node.id,
    template: Template.fromStack(nested),
    resourceId: Stack.of(stack).getLogicalId(nested.nestedStackResource!),
  })),
];

/** The number of resources in a template (what CloudFormation limits to 500 per stack). */
export const resourceCount = (template: Template): number => Object.keys(template.toJSON().Resources ?? {}).length;

/** The logical id a nested stack's resource has in the flattened template. */
export const flatId = (stackName: string, logicalId: string): string => `${stackName}.${logicalId}`;

/**
 * The parent and its nested stacks as one template, so assertions can follow references across stacks: a nested
 * stack's resources are renamed `<Routes<Tag>>.<logical id>` (with their Refs, GetAtts and DependsOn), and every
 * reference to one of its parameters is replaced by the value the parent passes in (a Ref or GetAtt of the parent's
 * own resources), and every `Fn::GetAtt` of a nested stack's output by the output's value. A parameter the parent
 * does not pass, or an intrinsic this flattening does not understand, throws.
 */
export const flattenTemplates = (stacks: readonly StackTemplate[]): Template => {
  const [parent, ...nested] = stacks;
  if (!parent || parent.resourceId !== undefined) throw new Error('flattenTemplates: the parent stack comes first');
  const parentJson = parent.template.toJSON() as Json;
  const resources: Json = { ...parentJson.Resources };
  /** `<nested stack resource id>.Outputs.<name>` → the output's value, renamed as the stack's resources are. */
  const outputs = new Map<string, unknown>();
  for (const { name, template, resourceId } of nested) {
    const json = template.toJSON() as Json;
    const stackResource = parentJson.Resources[resourceId!] as Json | undefined;
    if (stackResource?.Type !== 'AWS::CloudFormation::Stack') throw new Error(`flattenTemplates: no stack resource ${resourceId} in the parent`);
    const passed = (stackResource.Properties?.Parameters ?? {}) as Json;
    const own = new Set(Object.keys(json.Resources ?? {}));
    const rename = (id: string): string => {
      if (!own.has(id)) throw new Error(`flattenTemplates: ${name} refers to ${id}, not one of its resources`);
      return flatId(name, id);
    };
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (typeof value !== 'object' || value === null) return value;
      const entries = Object.entries(value);
      if (entries.length === 1 && entries[0]![0] === 'Ref') {
        const target = entries[0]![1] as string;
        if (target.startsWith('AWS::')) return value;
        if (target in (json.Parameters ?? {})) {
          if (!(target in passed)) throw new Error(`flattenTemplates: the parent passes no ${target} to ${name}`);
          return passed[target];
        }
        return { Ref: rename(target) };
      }
      if (entries.length === 1 && entries[0]![0] === 'Fn::GetAtt') {
        const [target, attribute] = entries[0]![1] as [string, string];
        return { 'Fn::GetAtt': [rename(target), attribute] };
      }
      if ('Fn::Sub' in value && JSON.stringify(value).match(/\$\{(?!AWS::)/)) throw new Error(`flattenTemplates: unsupported ${JSON.stringify(value)}`);
      return Object.fromEntries(entries.map(([key, sub]) => [key, rewrite(sub)]));
    };
    for (const [id, resource] of Object.entries(json.Resources ?? {}) as [string, Json][]) {
      const { DependsOn: dependsOn, ...rest } = resource;
      resources[flatId(name, id)] = {
        ...(rewrite(rest) as Json),
        ...(dependsOn === undefined ? {} : { DependsOn: [dependsOn].flat().map((d: string) => rename(d)) }),
      };
    }
    for (const [output, { Value: value }] of Object.entries(json.Outputs ?? {}) as [string, Json][]) outputs.set(`${resourceId}.Outputs.${output}`, rewrite(value));
  }
  const withOutputs = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(withOutputs);
    if (typeof value !== 'object' || value === null) return value;
    const getAtt = (value as Json)['Fn::GetAtt'] as [string, string] | undefined;
    const output = getAtt && Object.keys(value).length === 1 ? `${getAtt[0]}.${getAtt[1]}` : undefined;
    if (output !== undefined && outputs.has(output)) return withOutputs(outputs.get(output));
    return Object.fromEntries(Object.entries(value).map(([key, sub]) => [key, withOutputs(sub)]));
  };
  return Template.fromJSON({ ...parentJson, Resources: withOutputs(resources) as Json });
};
