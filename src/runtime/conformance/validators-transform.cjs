// jest's transform of the service's compiled validators (src/generated/validators/*.ts): ajv's
// JavaScript, typed only by its header's `import type` and each export's `: Validator` (see
// moduleOf in specforge's src/render/targets/server/validators.ts). Taking those out is all
// there is to do; ts-jest would parse megabytes of it with TypeScript first (GitHub's API: 14 MB,
// 1.2 GB of memory and 25 s the first time the suite runs).
module.exports = {
  process(source) {
    return {
      code: source
        .replace(/^import type [^\n]*;$/gm, '')
        .replace(/export const ([\p{ID_Continue}$]+): Validator = /gu, 'export const $1 = '),
    };
  },
};
