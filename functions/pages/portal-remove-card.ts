import { route } from '../../shared/schemas/generated/portalRemoveCard.js';
import { portalActionHandler } from './portal-action';

export const handler = portalActionHandler(route, 'remove');
