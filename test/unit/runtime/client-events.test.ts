/** The client's event-stream parser: the WHATWG "Interpreting an event stream" rules, whatever the chunking. */
import { parseEvents, type EventStreamState, type ServerSentEvent } from '../../../src/runtime/client/events.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A stream that delivers these chunks, in order. */
function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, state?: EventStreamState): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseEvents(stream, state)) events.push(event);
  return events;
}

/** Every rule at once: a BOM, the three line ends, comments, fields without colon or space, ids, retries, multi-byte text. */
const SAMPLE = [
  '\uFEFFretry: 1500\r\n',
  ': a comment, and a line that is only a colon next\r\n',
  ':\r\n',
  'event: greeting\r\n',
  'id: 1\r\n',
  'data: first\r\n',
  'data:  second, one of its two leading spaces kept\r\n',
  '\r\n',
  'data:no space\r',
  '\r',
  'id: bad\0id\n',
  'data: third\n',
  'data\n',
  '\n',
  'retry: 12x\n',
  'retry:\n',
  'id\n',
  'data: fourth é ünïcödé 😀\n',
  '\n',
  'event: dropped with its empty data\n',
  '\n',
  'unknown: field\n',
  'data: fifth\n',
  '\n',
  'id: 9\n',
  'data: unterminated',
].join('');

const EXPECTED: ServerSentEvent[] = [
  { data: 'first\n second, one of its two leading spaces kept', event: 'greeting', id: '1', retry: 1500 },
  { data: 'no space', id: '1', retry: 1500 },
  { data: 'third\n', id: '1', retry: 1500 },
  { data: 'fourth é ünïcödé 😀', retry: 1500 },
  { data: 'fifth', retry: 1500 },
];

test('the sample in one chunk', async () => {
  await expect(collect(streamOf(bytes(SAMPLE)))).resolves.toEqual(EXPECTED);
});

test('the sample split in two at every byte: CRLF, the BOM and multi-byte characters split too', async () => {
  const all = bytes(SAMPLE);
  for (let at = 0; at <= all.length; at++) {
    const events = await collect(streamOf(all.slice(0, at), all.slice(at)));
    if (JSON.stringify(events) !== JSON.stringify(EXPECTED)) throw new Error(`split at byte ${at}: ${JSON.stringify(events)}`);
  }
});

test('the sample one byte at a time', async () => {
  const all = bytes(SAMPLE);
  await expect(collect(streamOf(...Array.from(all, (byte) => Uint8Array.of(byte))))).resolves.toEqual(EXPECTED);
});

test('a four-byte character split over three chunks is one character', async () => {
  const emoji = bytes('😀'); // F0 9F 98 80
  const stream = streamOf(bytes('data: a'), emoji.slice(0, 1), emoji.slice(1, 3), Uint8Array.of(...emoji.slice(3), ...bytes('b\n\n')));
  await expect(collect(stream)).resolves.toEqual([{ data: 'a😀b' }]);
});

test('a CR, an empty chunk, then an LF: still one line end', async () => {
  const stream = streamOf(bytes('data: a\r'), new Uint8Array(0), bytes('\ndata: b\r\n\r\n'));
  await expect(collect(stream)).resolves.toEqual([{ data: 'a\nb' }]);
});

test('only one leading BOM is dropped: a second one is part of the field name, which is then unknown', async () => {
  await expect(collect(streamOf(bytes('\uFEFFdata: one\n\n')))).resolves.toEqual([{ data: 'one' }]);
  await expect(collect(streamOf(bytes('\uFEFF\uFEFFdata: two\n\n')))).resolves.toEqual([]);
  await expect(collect(streamOf(bytes('data: \uFEFFkept\n\n')))).resolves.toEqual([{ data: '\uFEFFkept' }]);
});

test('an event not ended by a blank line when the stream ends is not dispatched', async () => {
  await expect(collect(streamOf(bytes('data: a\n\ndata: b\n')))).resolves.toEqual([{ data: 'a' }]);
  await expect(collect(streamOf(bytes('data: a\n\ndata: b')))).resolves.toEqual([{ data: 'a' }]);
});

test('the last event ID carries over events until set again; an id with NUL is ignored; an empty id clears it', async () => {
  const text = 'id: 7\ndata: a\n\ndata: b\n\nid: x\0\ndata: c\n\nid:\ndata: d\n\n';
  await expect(collect(streamOf(bytes(text)))).resolves.toEqual([
    { data: 'a', id: '7' },
    { data: 'b', id: '7' },
    { data: 'c', id: '7' },
    { data: 'd' },
  ]);
});

test('retry is taken only when all digits, and kept', async () => {
  const text = 'retry: 250\ndata: a\n\nretry: 1e3\ndata: b\n\nretry: -5\nretry: 5 \nretry: 0\ndata: c\n\n';
  await expect(collect(streamOf(bytes(text)))).resolves.toEqual([
    { data: 'a', retry: 250 },
    { data: 'b', retry: 250 },
    { data: 'c', retry: 0 },
  ]);
});

test('the state outlives the stream: an id set by a block with no data, the retry, and the id a parse starts from', async () => {
  const state: EventStreamState = { lastEventId: '4' };
  await expect(collect(streamOf(bytes('data: a\n\nid: 5\nretry: 20\n\nid: 6\ndata: unterminated\n')), state)).resolves.toEqual([
    { data: 'a', id: '4' },
  ]);
  expect(state).toEqual({ lastEventId: '5', retry: 20 });
});

test('breaking out of the loop cancels the stream', async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(bytes('data: a\n\n')),
    cancel: () => {
      cancelled = true;
    },
  });
  for await (const event of parseEvents(stream)) {
    expect(event.data).toBe('a');
    break;
  }
  expect(cancelled).toBe(true);
});
