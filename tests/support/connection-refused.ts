import { connect } from 'node:net';

/** Whether a TCP connection to 127.0.0.1:port is refused now (nothing listens there), as a new client would find. */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      answer(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => answer(error.code === 'ECONNREFUSED'));
  });
}
