/**
 * Server-sent events (`text/event-stream`) read as the WHATWG HTML standard
 * interprets them ("Interpreting an event stream"): bytes in, events out.
 * The client's `events()` operations reconnect around it; no dependencies.
 */

/** One event as the server dispatched it. */
export interface ServerSentEvent<Data = string> {
  /** The `data` lines joined with line feeds (parsed as JSON where the operation says so). */
  data: Data;
  /** Its type, where the server named one (a browser would say `message`). */
  event?: string;
  /** The last event ID in effect when it arrived: what a reconnection sends as `Last-Event-ID`. */
  id?: string;
  /** The reconnection time, in ms, that the stream last set with `retry`. */
  retry?: number;
}

/**
 * What outlives one connection: the last event ID (set at every blank line,
 * even one that dispatches nothing) and the reconnection time. A parse starts
 * from `lastEventId` and updates both as the stream sets them.
 */
export interface EventStreamState {
  lastEventId: string;
  retry?: number;
}

/** The buffers the standard keeps while a stream is parsed. */
interface Buffers {
  data: string;
  event: string;
  id: string;
}

/** The events of a stream, in order; an event still unterminated when it ends is dropped. */
export async function* parseEvents(
  stream: ReadableStream<Uint8Array>,
  state: EventStreamState = { lastEventId: '' },
): AsyncGenerator<ServerSentEvent<string>, void, undefined> {
  const reader = stream.getReader();
  // UTF-8, streaming: a character split across chunks is joined, one leading BOM dropped.
  const decoder = new TextDecoder();
  const split = lineSplitter();
  const buffers: Buffers = { data: '', event: '', id: state.lastEventId };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      for (const line of split(done ? decoder.decode() : decoder.decode(value, { stream: true }))) {
        const event = interpret(line, buffers, state);
        if (event) yield event;
      }
      if (done) return; // what is left is an unterminated line: discarded, as the standard says
    }
  } finally {
    // Stopped early (a `break`, an error): the connection is not read any further.
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * Splits text that arrives in pieces into lines ended by CRLF, CR or LF. A CR
 * that ends one piece and an LF that starts the next are a single line end.
 */
function lineSplitter(): (text: string) => string[] {
  let rest = '';
  let afterCR = false;
  return (text) => {
    if (text === '') return [];
    if (afterCR && text.startsWith('\n')) text = text.slice(1);
    afterCR = text.endsWith('\r');
    const lines = (rest + text).split(/\r\n|\r|\n/);
    rest = lines.pop()!;
    return lines;
  };
}

/** One line: a blank one dispatches, a `:` one is a comment, any other sets a field. */
function interpret(
  line: string,
  buffers: Buffers,
  state: EventStreamState,
): ServerSentEvent | undefined {
  if (line === '') return dispatch(buffers, state);
  if (line.startsWith(':')) return undefined;
  const colon = line.indexOf(':');
  const field = colon === -1 ? line : line.slice(0, colon);
  const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
  if (field === 'event') buffers.event = value;
  else if (field === 'data') buffers.data += `${value}\n`;
  else if (field === 'id' && !value.includes('\0')) buffers.id = value;
  else if (field === 'retry' && /^[0-9]+$/.test(value)) state.retry = Number(value);
  return undefined;
}

/** The event the buffers hold, if their data is not empty; the last event ID is kept either way. */
function dispatch(buffers: Buffers, state: EventStreamState): ServerSentEvent | undefined {
  state.lastEventId = buffers.id;
  const { data, event } = buffers;
  buffers.data = '';
  buffers.event = '';
  if (data === '') return undefined;
  return {
    data: data.slice(0, -1), // the line feed the last `data` line added
    ...(event ? { event } : {}),
    ...(state.lastEventId ? { id: state.lastEventId } : {}),
    ...(state.retry !== undefined ? { retry: state.retry } : {}),
  };
}
