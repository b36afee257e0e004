import { patternSample } from '../../src/render/targets/conformance/pattern.js';

describe('strings from a pattern', () => {
  const patterns = [
    '^sha256:[a-f0-9]{64}$',
    '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$',
    '^[A-Za-z0-9.\\-_]+$',
    '[a-z]+_token_[0-9]+',
    '^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ',
    '^\\d+\\.\\d+\\.\\d+$',
    'github',
  ];

  test.each(patterns)('%s: a string that matches it (as ajv reads it, with the u flag)', (pattern) => {
    expect(patternSample(pattern)).toMatch(new RegExp(pattern, 'u'));
  });

  test('the same string on every run; another seed, another string', () => {
    const pattern = '^sha256:[a-f0-9]{64}$';
    expect(patternSample(pattern)).toBe(patternSample(pattern));
    expect(patternSample(pattern, {}, 1)).not.toBe(patternSample(pattern));
  });

  test('within the length bounds, or none', () => {
    expect(patternSample('^[a-z]+$', { min: 4, max: 6 })).toMatch(/^[a-z]{4,6}$/);
    expect(patternSample('^[a-z]{10}$', { max: 5 })).toBeUndefined();
  });

  test('none for what it cannot follow or parse: lookarounds, Unicode classes, an invalid pattern', () => {
    expect(patternSample('^(?=a)b')).toBeUndefined();
    expect(patternSample('^\\p{L}+$')).toBeUndefined();
    expect(patternSample('^[a-')).toBeUndefined();
  });
});
