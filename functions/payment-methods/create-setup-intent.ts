import { createSetupIntent } from '../../shared/domain/payment-methods/setup-intents';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createSetupIntent.js';

export const handler = httpHandler(route, ({ ctx, path }) => createSetupIntent(ctx, path.id!));
