import { getCoupon } from '../../shared/domain/coupons/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getCoupon.js';

export const handler = httpHandler(route, ({ ctx, path }) => getCoupon(ctx, path.id!));
