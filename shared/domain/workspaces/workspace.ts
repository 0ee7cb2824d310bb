import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../context';
import { db, tableName } from '../../db/client';
import { settingKey } from '../../db/keys';
import { ConditionFailed, translateWriteError } from '../../db/transactions';
import { Conflict } from '../../errors';
import { WORKSPACE_ID_PATTERN } from '../../http/request-context';
import { ulid } from '../../ids';
import { createApiKey } from '../api-keys/manage';

/** `test`: a workspace for trying things out, which may have a test clock (docs/test-clocks.md); fixed at creation. */
export type WorkspaceMode = 'live' | 'test';

export interface Workspace {
  id: string;
  name: string;
  mode: WorkspaceMode;
  created_at: string;
}

/** The workspace's own item (`WS#<id>#SETTING` / `workspace`), which also holds its test clock, if any. */
export const workspaceRecordKey = (id: string) => settingKey(makeCtx(id, 'workspace'), 'workspace');
const record = workspaceRecordKey;

/**
 * Creates a workspace and its first API key (every scope: the key that creates the others). A workspace is only a
 * name under its id: everything else in the table already lives under `WS#<id>#`. Operators run this from the CLI
 * (bin/cli.ts); no route creates workspaces, since a credential always belongs to one.
 */
export async function createWorkspace(name: string, id = `ws_${ulid().toLowerCase()}`, now = new Date(), mode: WorkspaceMode = 'live') {
  if (!WORKSPACE_ID_PATTERN.test(id)) throw new Error(`'${id}' is not a workspace id (ws_ then 1 to 61 letters, digits, _ or -)`);
  const workspace: Workspace = { id, name, mode, created_at: now.toISOString() };
  try {
    await db.send(new PutCommand({ TableName: tableName(), Item: { ...record(id), _type: 'workspace', ...workspace }, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    const translated = translateWriteError(error);
    throw translated instanceof ConditionFailed ? new Conflict(`The workspace ${id} exists already.`) : translated;
  }
  const apiKey = await createApiKey(makeCtx(id, 'workspace'), { name: 'Initial admin key', scopes: ['read', 'write', 'admin'] });
  return { workspace, apiKey };
}

export async function getWorkspace(id: string): Promise<Workspace | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: record(id), ConsistentRead: true }));
  return Item && { id: Item.id, name: Item.name, mode: Item.mode === 'test' ? 'test' : 'live', created_at: Item.created_at };
}
