/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of LevelDB tables and of
 * TensorFlow tensor bundles, and LevelDB's mask, which both store in place of the raw value
 * (leveldb util/crc32c.h: rotate right by 15 bits, add 0xa282ead8).
 */

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

/** Extends a running CRC-32C (0 to start) with `bytes`. */
export function crc32c(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const MASK_DELTA = 0xa282ead8;

/** The masked form a LevelDB table or a tensor bundle stores. */
export function maskCrc(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + MASK_DELTA) >>> 0;
}
