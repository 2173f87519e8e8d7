'use strict';
// Reads a file of concatenated BSON documents (what mongodump writes), plain or
// gzip (mongodump --gzip), told apart by the gzip magic bytes, not the name.
// Streams it: memory holds one read chunk plus the document that straddles
// it, whatever the file's size. Hands each document over as a Buffer slice.

const fs = require('fs');
const zlib = require('zlib');

// 256 KiB: as fast as 1 MiB reads, and a 1 GiB audit's peak memory was 17 MiB
// over the shell's own with it, against 80 MiB with 1 MiB (bench/oplog-audit.md).
const CHUNK = 1 << 18;
// A BSON document is 5 bytes at least; an oplog entry at most 16 MiB plus the
// server's slack for internal documents (BSONObjMaxInternalSize, 16 MiB + 16 KiB).
const MIN_DOC = 5;
const MAX_DOC = 16 * 1024 * 1024 + 16 * 1024;

function isGzip(fd) {
  const head = Buffer.alloc(2);
  const n = fs.readSync(fd, head, 0, 2, 0);
  return n === 2 && head[0] === 0x1f && head[1] === 0x8b;
}

// onDocument(buffer): called for each document, in file order; may return
// nothing. onProgress({fileBytes, fileSize, documents}): called after each
// chunk. fail(message): builds the caller's error. Resolves {documents,
// fileBytes, gzip}. `signal` (an AbortSignal) stops the read early.
async function readBsonFile(file, { onDocument, onProgress, fail }) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    throw fail(`cannot read the file ${JSON.stringify(file)}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EACCES' ? 'permission denied' : err.code === 'EISDIR' ? 'it is a directory' : err.message}`);
  }
  let size;
  let gzip;
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw fail(`cannot read the file ${JSON.stringify(file)}: it is a directory`);
    size = st.size;
    gzip = isGzip(fd);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  const raw = fs.createReadStream(null, { fd, highWaterMark: CHUNK, autoClose: true });
  const source = gzip ? raw.pipe(zlib.createGunzip({ chunkSize: CHUNK })) : raw;
  let pending = [];
  let pendingBytes = 0;
  let documents = 0;
  let offset = 0;
  try {
    for await (const chunk of source) {
      let buf = chunk;
      if (pendingBytes) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        // Join only once the straddling document is whole: a 16 MiB entry
        // read in 256 KiB chunks is copied once, not sixty-four times.
        const need = pending[0].length >= 4 ? pending[0].readInt32LE(0) : MIN_DOC;
        if (pendingBytes < need) continue;
        buf = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
      let pos = 0;
      while (buf.length - pos >= 4) {
        const len = buf.readInt32LE(pos);
        if (len < MIN_DOC || len > MAX_DOC) {
          throw fail(`${JSON.stringify(file)} is not a BSON dump: at byte ${offset + pos} a document claims ${len} bytes ` +
            `(expected ${MIN_DOC} to ${MAX_DOC}; mongodump writes .bson files, plain or with --gzip)`);
        }
        if (pos + len > buf.length) break;
        if (buf[pos + len - 1] !== 0) {
          throw fail(`${JSON.stringify(file)} is not a BSON dump: the document at byte ${offset + pos} does not end with a NUL byte`);
        }
        onDocument(buf.subarray(pos, pos + len));
        documents++;
        pos += len;
      }
      offset += pos;
      if (pos < buf.length) {
        pending = [buf.subarray(pos)];
        pendingBytes = buf.length - pos;
      }
      if (onProgress) onProgress({ fileBytes: raw.bytesRead, fileSize: size, documents });
    }
  } catch (err) {
    if (err && err.code === 'Z_DATA_ERROR') throw fail(`${JSON.stringify(file)} starts as gzip but does not inflate: ${err.message}`);
    if (err && err.code === 'Z_BUF_ERROR') throw fail(`${JSON.stringify(file)} is a truncated gzip file`);
    throw err;
  } finally {
    // An early stop (an error, or Ctrl-C) must not leave the descriptor open.
    raw.destroy();
    if (source !== raw) source.destroy();
  }
  if (pendingBytes) {
    throw fail(`${JSON.stringify(file)} ends inside a document (${pendingBytes} bytes left at byte ${offset}): the dump is truncated`);
  }
  return { documents, fileBytes: size, gzip };
}

module.exports = { readBsonFile, isGzip };
