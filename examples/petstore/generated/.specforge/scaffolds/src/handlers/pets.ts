/**
 * Operations on pets (/pets/{pet_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { PetsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const pets: PetsHandlers = {
  listPets: (request) => store.pets.list(request),
  createPet: (request) => store.pets.create(request),
  getPet: (request) => store.pets.get(request),
  deletePet: (request) => store.pets.remove(request),
};
