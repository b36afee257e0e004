/** Spans only where an SDK records them (tracing.ts). */
import * as api from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { tracingWith } from '../../../src/runtime/server/generated/conventions/tracing.js';

type Api = Parameters<typeof tracingWith>[0];

afterEach(() => api.trace.disable());

test('without an SDK no span is opened: the API would record nothing', () => {
  const tracing = tracingWith(api as unknown as Api, 'bookshop');
  expect(tracing.start('GET', '/books', {})).toBeUndefined();
});

test('with an SDK registered, even after the service started, each request has its span', () => {
  const tracing = tracingWith(api as unknown as Api, 'bookshop');
  api.trace.setGlobalTracerProvider(new BasicTracerProvider());
  const span = tracing.start('GET', '/books', {});
  expect(span?.ids.traceId).toMatch(/^[\da-f]{32}$/);
  expect(span?.ids.traceId).not.toMatch(/^0+$/);
  span?.finish('/books', 200);
});
