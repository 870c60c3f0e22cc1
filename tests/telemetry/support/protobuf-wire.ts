/**
 * Just enough of the protobuf wire format (protobuf.dev/programming-guides/encoding) to read the fields of an
 * OTLP ExportTraceServiceRequest the tests look at: varints, fixed 64/32-bit and length-delimited fields.
 */
export type WireField = { readonly number: number; readonly varint?: bigint; readonly bytes?: Buffer; readonly fixed64?: Buffer };

export function wireFields(buffer: Buffer): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error('protobuf: a varint runs past the end');
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < buffer.length) {
    const tag = Number(varint());
    const number = tag >>> 3;
    switch (tag & 7) {
      case 0:
        fields.push({ number, varint: varint() });
        break;
      case 1:
        fields.push({ number, fixed64: buffer.subarray(at, at + 8) });
        at += 8;
        break;
      case 2: {
        const length = Number(varint());
        fields.push({ number, bytes: buffer.subarray(at, at + length) });
        at += length;
        break;
      }
      case 5:
        at += 4;
        break;
      default:
        throw new Error(`protobuf: wire type ${tag & 7} is not expected in OTLP`);
    }
  }
  return fields;
}

export function messages(fields: readonly WireField[], number: number): Buffer[] {
  return fields.filter((field) => field.number === number && field.bytes !== undefined).map((field) => field.bytes as Buffer);
}

export function firstMessage(fields: readonly WireField[], number: number): Buffer | undefined {
  return messages(fields, number)[0];
}

export function text(fields: readonly WireField[], number: number): string | undefined {
  return firstMessage(fields, number)?.toString('utf8');
}

export function varintOf(fields: readonly WireField[], number: number): bigint | undefined {
  return fields.find((field) => field.number === number && field.varint !== undefined)?.varint;
}
