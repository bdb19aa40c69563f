import { crc32, deflateSync } from 'node:zlib';

/**
 * A real, decodable 1×1 PNG (signature, IHDR, IDAT, IEND, correct CRCs). Different seeds give
 * different bytes (the pixel's green value), for tests that need distinct files.
 */
export function tinyPng(seed = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0, seed & 0xff, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
