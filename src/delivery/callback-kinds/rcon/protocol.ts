// Source RCON packets as Minecraft reads and writes them: constants, limits, encoding and a streaming decoder.
//
// Sources: wiki.vg "RCON" (now minecraft.wiki/w/RCON), Valve's "Source RCON Protocol"
// (developer.valvesoftware.com/wiki/Source_RCON_Protocol) and Minecraft's server (net.minecraft.server.rcon.thread.RconClient).
// A packet: int32 length of what follows, int32 request id, int32 type, body, two NUL bytes; integers little-endian.

export const SERVERDATA_AUTH = 3;
/** Minecraft answers a login with type 2, the same number as a command (Valve's SERVERDATA_AUTH_RESPONSE). */
export const SERVERDATA_AUTH_RESPONSE = 2;
export const SERVERDATA_EXECCOMMAND = 2;
export const SERVERDATA_RESPONSE_VALUE = 0;
/** The request id of the answer to a refused login (and, on Minecraft, to a command sent before logging in). */
export const AUTH_FAILED_ID = -1;
/**
 * A type Minecraft does not know: it answers "Unknown request c8" under the same id, after everything it owed the
 * packets before it. Used to find the end of a multi-packet answer (rcon-connection.ts says why and when).
 */
export const SENTINEL_TYPE = 200;

/** Minecraft reads a packet with one read() into a 1460-byte buffer: 1460 - length, id, type (12) - two NULs (2). */
export const MAX_COMMAND_BYTES = 1446;
/** Minecraft cuts an answer into packets of at most 4096 characters (Java string length, not bytes). */
export const ANSWER_FRAGMENT_CHARS = 4096;
/** id, type and the two NULs: the length of a packet with an empty body. */
export const MIN_PACKET_LENGTH = 10;
/** Far above any Minecraft packet (4096 characters are at most 12,288 UTF-8 bytes); anything longer is not RCON. */
export const MAX_PACKET_LENGTH = 1024 * 1024;

export interface RconPacket {
  id: number;
  type: number;
  /** Up to the first NUL, as Minecraft reads a body (PktUtils.stringFromByteArray); UTF-8. */
  body: Buffer;
}

export class RconProtocolError extends Error {}

export function encodePacket(id: number, type: number, body: string): Buffer {
  const text = Buffer.from(body, 'utf8');
  const packet = Buffer.alloc(4 + MIN_PACKET_LENGTH + text.length);
  packet.writeInt32LE(MIN_PACKET_LENGTH + text.length, 0);
  packet.writeInt32LE(id, 4);
  packet.writeInt32LE(type, 8);
  text.copy(packet, 12);
  // Buffer.alloc zero-filled the last two bytes: the body's terminator and Valve's empty second string.
  return packet;
}

/** Takes the bytes of a stream in whatever chunks they arrive and hands back the whole packets they complete. */
export class PacketDecoder {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxLength = MAX_PACKET_LENGTH) {}

  /** Throws RconProtocolError on a length no RCON server sends; the stream cannot be resynchronised after that. */
  push(chunk: Buffer): RconPacket[] {
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const packets: RconPacket[] = [];
    let offset = 0;
    while (data.length - offset >= 4) {
      const length = data.readInt32LE(offset);
      if (length < MIN_PACKET_LENGTH || length > this.maxLength) {
        throw new RconProtocolError(`a packet announced ${length} bytes; RCON packets have ${MIN_PACKET_LENGTH} to ${this.maxLength}`);
      }
      if (data.length - offset < 4 + length) break;
      const text = data.subarray(offset + 12, offset + 4 + length - 2);
      const nul = text.indexOf(0);
      packets.push({
        id: data.readInt32LE(offset + 4),
        type: data.readInt32LE(offset + 8),
        // A copy: the chunk's memory is not kept alive by a body waiting for the rest of its answer.
        body: Buffer.from(nul < 0 ? text : text.subarray(0, nul)),
      });
      offset += 4 + length;
    }
    this.pending = Buffer.from(data.subarray(offset));
    return packets;
  }
}
