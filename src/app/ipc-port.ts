// MessagePorts between processes: a worker process of node:cluster gets a port whose other end is in the primary,
// carried over the cluster's IPC channel (README "Several processes"). On SQLite the workers' hot writes reach the
// primary's one write thread this way (src/app/sqlite-cluster.ts); the write thread's protocol (src/storage/
// write-thread.ts) is the same as between threads and is not read here. The primary must fork with
// `serialization: 'advanced'` so that messages cross as they would between threads (dates, buffers, undefined).
import { MessageChannel, type MessagePort } from 'node:worker_threads';

const PORT_MESSAGE = 'vote-relay:port';

interface Envelope {
  type: typeof PORT_MESSAGE;
  channel: number;
  message?: unknown;
  /** The other end closed this channel (its port is gone); nothing more will cross it. */
  closed?: true;
}

const isEnvelope = (value: unknown): value is Envelope => (value as Envelope | null)?.type === PORT_MESSAGE;

let nextChannel = 0;
/**
 * Every send passes a callback: a channel that closes under it (the other process is going away) then reports to the
 * callback, where it is nothing to act on, instead of as an 'error' event that would end this process.
 */
const ignore = () => {};

/** In a worker process: sends `message` to the primary, if it is still there. */
export function sendToPrimary(message: unknown): void {
  if (process.connected) process.send!(message, undefined, undefined, ignore);
}

/** In the primary: sends `message` to a worker, if it is still there. */
export function sendToWorker(worker: IpcPeer, message: unknown): void {
  if (worker.isConnected()) worker.send(message, undefined, undefined, ignore);
}

/** In a worker process: a new port to the primary, which opens its own end on the first message. */
export function portToPrimary(): MessagePort {
  if (!process.send) throw new Error('portToPrimary: this process has no IPC channel (it was not forked by node:cluster)');
  const channel = nextChannel++;
  const { port1, port2 } = new MessageChannel();
  const fromPrimary = (value: unknown) => {
    if (!isEnvelope(value) || value.channel !== channel) return;
    if (value.closed) port1.close();
    else port1.postMessage(value.message);
  };
  process.on('message', fromPrimary);
  port1.on('message', (message: unknown) => sendToPrimary({ type: PORT_MESSAGE, channel, message } satisfies Envelope));
  port1.on('close', () => {
    process.off('message', fromPrimary);
    process.off('disconnect', gone);
    sendToPrimary({ type: PORT_MESSAGE, channel, closed: true } satisfies Envelope);
  });
  // The primary is gone: nothing sent on this port can be answered.
  const gone = () => port1.close();
  process.once('disconnect', gone);
  return port2;
}

/** What the primary needs of a forked worker (node:cluster's Worker has it). */
export interface IpcPeer {
  send(message: unknown, sendHandle: undefined, options: undefined, callback: (error: Error | null) => void): boolean;
  isConnected(): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: () => void): unknown;
}

/**
 * In the primary: serves the ports a worker opens with portToPrimary(), each channel's end made by `open` on its
 * first message (null: refused, the worker's port is closed). Its ends close when the worker exits.
 */
export function servePorts(worker: IpcPeer, open: (channel: number) => MessagePort | null): void {
  const ends = new Map<number, MessagePort>();
  const tell = (envelope: Envelope) => sendToWorker(worker, envelope);
  worker.on('message', (value) => {
    if (!isEnvelope(value)) return;
    const { channel } = value;
    let end = ends.get(channel);
    if (value.closed) {
      ends.delete(channel);
      return void end?.close();
    }
    if (!end) {
      const opened = open(channel);
      if (!opened) return tell({ type: PORT_MESSAGE, channel, closed: true });
      end = opened;
      ends.set(channel, end);
      end.on('message', (message: unknown) => tell({ type: PORT_MESSAGE, channel, message }));
      end.on('close', () => {
        if (ends.get(channel) !== end) return;
        ends.delete(channel);
        tell({ type: PORT_MESSAGE, channel, closed: true });
      });
    }
    end.postMessage(value.message);
  });
  worker.on('exit', () => {
    const open = [...ends.values()];
    ends.clear();
    for (const end of open) end.close();
  });
}
