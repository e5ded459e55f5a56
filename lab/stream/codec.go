package stream

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"google.golang.org/grpc/mem"
)

// request is a message from the client to the peer: its id, which the
// reply carries back, its payload, and the CRC-32C of the payload as the
// sender computed it. The peer checks the sum end to end: a message whose
// sum does not match its payload is malformed, and is rejected alone.
type request struct {
	id      uint64
	sum     uint32
	payload []byte
}

// reply is the peer's answer to the request of the same id; a non-empty
// reject says why the peer refused it.
type reply struct {
	id     uint64
	reject string
}

// The frames of the wire format, all big-endian:
//
//	request: 'Q', id (8 bytes), CRC-32C of the payload (4 bytes), payload
//	reply:   'R', id (8 bytes), reason for a rejection (UTF-8, empty if none)
const (
	kindRequest   = 'Q'
	kindReply     = 'R'
	requestHeader = 1 + 8 + 4
	replyHeader   = 1 + 8
	codecName     = "brewput-stream"
)

// checksum is the CRC-32C of a payload, as requests carry it.
func checksum(payload []byte) uint32 {
	return crc32.Checksum(payload, crc32.MakeTable(crc32.Castagnoli))
}

// codec is the lab's gRPC codec (encoding.CodecV2), written by hand so that
// no protoc is needed and so that a bad frame is a decode error the tests
// can provoke with raw bytes. It is given to each server and connection
// (grpc.ForceServerCodecV2, grpc.ForceCodecV2), never registered.
type codec struct{}

// Name is the codec's name in gRPC's content type.
func (codec) Name() string { return codecName }

// Marshal encodes a *request or a *reply into one frame.
func (codec) Marshal(v any) (mem.BufferSlice, error) {
	var b []byte
	switch m := v.(type) {
	case *request:
		b = make([]byte, requestHeader+len(m.payload))
		b[0] = kindRequest
		binary.BigEndian.PutUint64(b[1:], m.id)
		binary.BigEndian.PutUint32(b[9:], m.sum)
		copy(b[requestHeader:], m.payload)
	case *reply:
		b = make([]byte, replyHeader+len(m.reject))
		b[0] = kindReply
		binary.BigEndian.PutUint64(b[1:], m.id)
		copy(b[replyHeader:], m.reject)
	default:
		return nil, fmt.Errorf("%s codec: cannot encode %T", codecName, v)
	}
	return mem.BufferSlice{mem.SliceBuffer(b)}, nil
}

// Unmarshal decodes one frame into a *request or a *reply, and fails on a
// frame shorter than its header or of another kind. gRPC frees data when
// Unmarshal returns, so the payload is copied.
func (codec) Unmarshal(data mem.BufferSlice, v any) error {
	b := data.Materialize()
	switch m := v.(type) {
	case *request:
		if err := checkFrame(b, kindRequest, requestHeader); err != nil {
			return err
		}
		m.id = binary.BigEndian.Uint64(b[1:])
		m.sum = binary.BigEndian.Uint32(b[9:])
		m.payload = b[requestHeader:] // Materialize made b a copy
	case *reply:
		if err := checkFrame(b, kindReply, replyHeader); err != nil {
			return err
		}
		m.id = binary.BigEndian.Uint64(b[1:])
		m.reject = string(b[replyHeader:])
	default:
		return fmt.Errorf("%s codec: cannot decode into %T", codecName, v)
	}
	return nil
}

// checkFrame checks a frame's length and kind byte against its type's.
func checkFrame(b []byte, kind byte, header int) error {
	if len(b) < header {
		return fmt.Errorf("%s codec: frame of %d bytes, shorter than the %d-byte header of a %c frame", codecName, len(b), header, kind)
	}
	if b[0] != kind {
		return fmt.Errorf("%s codec: frame of kind %#x, want %c", codecName, b[0], kind)
	}
	return nil
}
