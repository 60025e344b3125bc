/**
 * A lingering close (RFC 9112 section 9.6): a connection closed while its client is still sending is
 * half-closed after the answer, and what still arrives is read and dropped for a bounded while before
 * the socket is destroyed. Destroying it at once, with unread bytes in the kernel's buffer, makes the
 * kernel send a reset, and a reset that reaches the client before it read the answer (a 413 for an
 * endless chunked body, a 401 for a keyless upload) drops that answer: the client sees ECONNRESET.
 */
import type { Socket } from 'node:net';

/** Bytes dropped while lingering; past them the socket stops reading, so the client's window fills and it waits. */
const LINGER_MAX_BYTES = 256 * 1024;
/** How long a closing connection lingers before it is destroyed, whatever the client does. */
const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/**
 * Makes the next close of `socket` a lingering one. Node's HTTP server ends a connection it will not
 * reuse with socket.destroySoon() (end, then destroy once the answer is flushed); this socket's own
 * destroySoon instead takes the socket back from the HTTP parser (a listener on 'data' does that: the
 * parser stops consuming it), ends the write side, drops input up to LINGER_MAX_BYTES, then pauses,
 * and destroys the socket when the client ends its side or LINGER_MS after.
 */
export function lingerOnClose(socket: Socket): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = function (this: Socket): void {
    let dropped = 0;
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.removeAllListeners('data');
    this.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > LINGER_MAX_BYTES) this.pause();
    });
    this.once('end', () => this.destroy());
    this.on('error', () => this.destroy());
    this.end();
    this.resume();
  };
}
