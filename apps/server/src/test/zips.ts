import { crc32, deflateRawSync } from 'node:zlib';

/** A zip archive written by hand (deflate), so a test can craft what no office app would: a bomb. */
export function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data, { level: 9 });
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The entries of a real .xlsx or .docx with one part replaced: `size` bytes of zeros inside an XML element. */
export async function withHugePart(office: Buffer, part: string, size: number): Promise<Buffer> {
  const { default: JSZip } = await import('jszip');
  const archive = await JSZip.loadAsync(office);
  const entries: { name: string; data: Buffer }[] = [];
  for (const [name, file] of Object.entries(archive.files)) {
    if (file.dir) continue;
    entries.push({ name, data: name === part ? hugeXml(size) : Buffer.from(await file.async('uint8array')) });
  }
  return zip(entries);
}

function hugeXml(size: number): Buffer {
  const open = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><x>');
  const close = Buffer.from('</x>');
  return Buffer.concat([open, Buffer.alloc(size, '0'), close]);
}
