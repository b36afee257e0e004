/**
 * Operations on reviews (/reviews/{review_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { ReviewsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const reviews: ReviewsHandlers = {
  listReviews: (request) => store.reviews.list(request),
  createReview: (request) => store.reviews.create(request),
  getReview: (request) => store.reviews.get(request),
  deleteReview: (request) => store.reviews.remove(request),
};
