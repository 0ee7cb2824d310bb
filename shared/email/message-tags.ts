/**
 * The SES message tags every email is sent with (SendEmail's `EmailTags`), which SES publishes back in each of its
 * events (`mail.tags`, as lists): they name the email, so a bounce, complaint or delivery is mapped to it without a
 * table key that does not begin with the workspace. Workspace and email ids are letters, digits, `_` and `-` only,
 * the characters a tag value may hold.
 */
export const WORKSPACE_TAG = 'billing-workspace';
export const EMAIL_TAG = 'billing-email';

export const messageTags = (workspaceId: string, emailId: string): { Name: string; Value: string }[] => [
  { Name: WORKSPACE_TAG, Value: workspaceId },
  { Name: EMAIL_TAG, Value: emailId },
];

/** The tags as SES publishes them in an event: each name with a list of values. */
export const publishedTags = (workspaceId: string, emailId: string): Record<string, string[]> =>
  Object.fromEntries(messageTags(workspaceId, emailId).map((tag) => [tag.Name, [tag.Value]]));
