import { createCoupon } from '../../shared/domain/coupons/create';
import type { CouponCreateInput } from '../../shared/domain/coupons/input';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createCoupon.js';

export const handler = httpHandler<CouponCreateInput>(route, ({ ctx, body }) => createCoupon(ctx, body));
