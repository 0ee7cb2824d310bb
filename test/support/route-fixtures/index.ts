import { customerFixtures } from './customers';
import { invoicingEntityFixtures } from './invoicing-entities';
import { oauthFixtures } from './oauth';
import type { AreaFixtures } from './types';
import { webhookFixtures } from './webhooks';

const areas: AreaFixtures[] = [invoicingEntityFixtures, customerFixtures, webhookFixtures, oauthFixtures];

export const resourceFixtures: AreaFixtures['resources'] = Object.assign({}, ...areas.map((a) => a.resources));
export const validBodies: AreaFixtures['bodies'] = Object.assign({}, ...areas.map((a) => a.bodies));
