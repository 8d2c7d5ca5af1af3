package temporal

import (
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

// compressFrom is the size from which a payload is compressed: smaller
// ones (most step results, gate requests, a run's status) stay plain JSON,
// readable in Temporal's UI and CLI without a codec server.
const compressFrom = 4 << 10

// DataConverter is how runs, clients and workers encode what they send
// through Temporal: JSON (runtime values keep their key order, see JSON),
// then, for payloads of 4 KiB and more, zlib. Every client and worker of a
// namespace must use it.
func DataConverter() converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), Codec())
}

// Codec is the payload codec of DataConverter (for a codec server).
func Codec() converter.PayloadCodec {
	return sizedCodec{converter.NewZlibCodec(converter.ZlibCodecOptions{})}
}

// sizedCodec compresses the payloads from compressFrom bytes with zlib
// (which keeps a payload that compression would not shrink as it is).
type sizedCodec struct{ zlib converter.PayloadCodec }

func (c sizedCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		out[i] = p
		if len(p.GetData()) < compressFrom {
			continue
		}
		enc, err := c.zlib.Encode([]*commonpb.Payload{p})
		if err != nil {
			return payloads, err
		}
		out[i] = enc[0]
	}
	return out, nil
}

func (c sizedCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return c.zlib.Decode(payloads)
}
