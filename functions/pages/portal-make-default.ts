import { route } from '../../shared/schemas/generated/portalMakeDefault.js';
import { portalActionHandler } from './portal-action';

export const handler = portalActionHandler(route, 'make_default');
