import { deleteCoupon } from '../../shared/domain/coupons/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteCoupon.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteCoupon(ctx, path.id!));
