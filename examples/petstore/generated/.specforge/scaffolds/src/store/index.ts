/**
 * The store the default handlers use: one in-memory collection per resource
 * (a singleton where the resource is one object with no id).
 * specforge created this file once; it is yours.
 */
import { MemoryCollection } from './memory.js';
import type * as PetsTypes from '../generated/resources/pets.js';

const pets = new MemoryCollection<PetsTypes.Pet>({
  type: 'pets',
  shape: 'flat',
  idParam: 'pet_id',
  ids: 'integer',
  createdField: 'created_at',
  sortOrders: { status: ['available', 'pending', 'sold'] },
});

export const store = {
  pets,
};
