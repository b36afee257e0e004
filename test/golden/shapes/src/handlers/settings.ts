/**
 * Operations on settings (/settings). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { SettingsHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const settings: SettingsHandlers = {
  getSettings: (request) => store.settings.get(request),
  replaceSettings: (request) => store.settings.replace(request),
  resetSettings: (request) => store.settings.remove(request),
  updateSettings: (request) => store.settings.update(request),
};
