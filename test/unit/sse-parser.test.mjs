// The typed client's text/event-stream parser against the WHATWG interpretation rules: fields,
// multi-line data, comments, line ends (CRLF, LF, CR, a CRLF split across chunks), ids that carry
// over, retry, the BOM, and what happens to an event cut off by the end of the stream.
import t from 'tap';
import { parseEventStream, SseParser } from '../../dist/lib/client/index.js';

/** Every event of `chunks` pushed one after another. */
function parse(...chunks) {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  return [...events, ...parser.end()];
}

function bodyOf(chunks) {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

t.test('SseParser', async (t) => {
  t.test('#push dispatches an event at the blank line that ends it', async (t) => {
    t.same(parse('event: cell\ndata: {"a":1}\n\n'), [{ event: 'cell', data: '{"a":1}', id: '' }]);
  });

  t.test('#push names an event without an event field "message"', async (t) => {
    t.same(parse('data: x\n\n'), [{ event: 'message', data: 'x', id: '' }]);
  });

  t.test('#push joins multi-line data with LF and keeps empty data lines', async (t) => {
    t.same(parse('data: one\ndata:\ndata:  three\n\n'), [{ event: 'message', data: 'one\n\n three', id: '' }]);
  });

  t.test('#push strips one space after the colon, not more, and takes a field without colon as empty', async (t) => {
    t.same(parse('data:no space\n\ndata\n\n'), [
      { event: 'message', data: 'no space', id: '' },
      { event: 'message', data: '', id: '' },
    ]);
  });

  t.test('#push ignores comments and counts them', async (t) => {
    const parser = new SseParser();
    t.same(parser.push(': keepalive\n\n:another\ndata: a\n\n'), [{ event: 'message', data: 'a', id: '' }]);
    t.equal(parser.comments, 2);
  });

  t.test('#push dispatches nothing for a block without data', async (t) => {
    t.same(parse('event: cell\n\n'), []);
    t.same(parse('event: cell\n\ndata: x\n\n'), [{ event: 'message', data: 'x', id: '' }], 'the event type does not leak into the next block');
  });

  t.test('#push accepts CRLF, LF and CR line ends, mixed', async (t) => {
    t.same(parse('event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n'), [
      { event: 'a', data: '1', id: '' },
      { event: 'b', data: '2', id: '' },
      { event: 'c', data: '3', id: '' },
    ]);
  });

  t.test('#push treats a CRLF split across chunks as one line end', async (t) => {
    t.same(parse('data: 1\r', '', '\n\r', '\ndata: 2\r\n\r\n'), [
      { event: 'message', data: '1', id: '' },
      { event: 'message', data: '2', id: '' },
    ]);
  });

  t.test('#push keeps a line split across chunks whole', async (t) => {
    t.same(parse('da', 'ta: {"te', 'xt":"hi"}', '\n', '\n'), [{ event: 'message', data: '{"text":"hi"}', id: '' }]);
  });

  t.test('#push carries the last id over to later events and ignores an id with NUL', async (t) => {
    t.same(parse('id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid\ndata: d\n\n'), [
      { event: 'message', data: 'a', id: '7' },
      { event: 'message', data: 'b', id: '7' },
      { event: 'message', data: 'c', id: '7' },
      { event: 'message', data: 'd', id: '' },
    ]);
  });

  t.test('#push reports a valid retry and ignores an invalid one', async (t) => {
    t.same(parse('retry: 3000\ndata: a\n\nretry: 1s\ndata: b\n\n'), [
      { event: 'message', data: 'a', id: '', retry: 3000 },
      { event: 'message', data: 'b', id: '' },
    ]);
  });

  t.test('#push ignores unknown fields and a leading BOM', async (t) => {
    t.same(parse('\uFEFFfoo: bar\ndata: a\n\n'), [{ event: 'message', data: 'a', id: '' }]);
    t.same(parse('\uFEFFdata: a\n\n'), [{ event: 'message', data: 'a', id: '' }]);
  });

  t.test('#end discards an event whose blank line never came', async (t) => {
    t.same(parse('data: a\n\ndata: cut off\n'), [{ event: 'message', data: 'a', id: '' }]);
    t.same(parse('data: no line end'), []);
  });
});

t.test('parseEventStream', async (t) => {
  t.test('decodes UTF-8 split inside a character', async (t) => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
    const events = [];
    for await (const event of parseEventStream(bodyOf([bytes.subarray(0, 8), bytes.subarray(8, 14), bytes.subarray(14)]))) events.push(event);
    t.same(events, [{ event: 'message', data: 'héllo ✓', id: '' }]);
  });

  t.test('cancels the body when the loop ends early', async (t) => {
    let cancelled = false;
    const body = new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: again\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of parseEventStream(body)) {
      t.equal(event.data, 'again');
      break;
    }
    t.equal(cancelled, true);
  });
});
