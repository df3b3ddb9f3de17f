import { describe, expect, it } from 'vitest';
import { MAX_PACKET_LENGTH, PacketDecoder, RconProtocolError, SERVERDATA_AUTH, encodePacket } from './protocol.js';

describe('encodePacket', () => {
  it('writes length, id, type, body and two NULs, little-endian', () => {
    expect(encodePacket(7, SERVERDATA_AUTH, 'pw').toString('hex')).toBe('0c000000' + '07000000' + '03000000' + '7077' + '0000');
    expect(encodePacket(-1, 2, '').toString('hex')).toBe('0a000000ffffffff020000000000');
  });
});

describe('PacketDecoder', () => {
  const packets = [encodePacket(1, 0, 'first'), encodePacket(2, 0, ''), encodePacket(3, 0, 'é§ – ünïcode'), encodePacket(4, 0, 'x'.repeat(5000))];
  const stream = Buffer.concat(packets);
  const read = (chunks: Buffer[]) => {
    const decoder = new PacketDecoder();
    return chunks.flatMap((chunk) => decoder.push(chunk)).map((p) => ({ id: p.id, type: p.type, body: p.body.toString('utf8') }));
  };
  const expected = [
    { id: 1, type: 0, body: 'first' },
    { id: 2, type: 0, body: '' },
    { id: 3, type: 0, body: 'é§ – ünïcode' },
    { id: 4, type: 0, body: 'x'.repeat(5000) },
  ];

  it('reads packets from one chunk, from single bytes and from chunks of every size in between', () => {
    expect(read([stream])).toEqual(expected);
    expect(read([...stream].map((byte) => Buffer.from([byte])))).toEqual(expected);
    for (const size of [2, 3, 5, 13, 14, 15, 1000, 4099]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.subarray(i, i + size));
      expect(read(chunks)).toEqual(expected);
    }
  });

  it('cuts a body at its first NUL, as Minecraft reads it', () => {
    const packet = encodePacket(5, 0, 'abc');
    const withSecondString = Buffer.concat([packet.subarray(0, 15), Buffer.from([0, 0x78, 0, 0])]);
    withSecondString.writeInt32LE(withSecondString.length - 4, 0);
    expect(read([withSecondString])).toEqual([{ id: 5, type: 0, body: 'abc' }]);
  });

  it('refuses lengths no RCON server sends', () => {
    const length = (n: number) => {
      const header = Buffer.alloc(4);
      header.writeInt32LE(n, 0);
      return header;
    };
    for (const n of [9, 0, -5, MAX_PACKET_LENGTH + 1, 0x7fffffff]) {
      expect(() => new PacketDecoder().push(length(n))).toThrow(RconProtocolError);
    }
    expect(new PacketDecoder().push(length(MAX_PACKET_LENGTH))).toEqual([]);
    // HTTP spoken to an RCON port: "HTTP" read as a length.
    expect(() => new PacketDecoder().push(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toThrow(/announced/);
  });
});
