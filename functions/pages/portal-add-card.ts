import { route } from '../../shared/schemas/generated/portalAddCard.js';
import { portalActionHandler } from './portal-action';

export const handler = portalActionHandler(route, 'add_card');
