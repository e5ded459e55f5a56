package stream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
)

// The one method of the peer's service: a bidirectional stream.
const (
	serviceName = "brewput.stream.Peer"
	chatName    = "Chat"
	chatMethod  = "/" + serviceName + "/" + chatName
)

// chatter is the service's HandlerType, which grpc checks the peer against.
type chatter interface {
	chat(grpc.ServerStream) error
}

func chatStream() *grpc.StreamDesc {
	return &grpc.StreamDesc{
		StreamName:    chatName,
		ServerStreams: true,
		ClientStreams: true,
		Handler: func(srv any, ss grpc.ServerStream) error {
			return srv.(chatter).chat(ss)
		},
	}
}

func serviceDesc() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: serviceName,
		HandlerType: (*chatter)(nil),
		Streams:     []grpc.StreamDesc{*chatStream()},
	}
}

// peer is the other end of the stream: a gRPC server on 127.0.0.1 that
// answers each request, in order; it can be stopped and started again on
// the same address.
type peer struct {
	mu     sync.Mutex
	addr   string        // chosen by the system at the first start
	srv    *grpc.Server  // nil while stopped
	served chan struct{} // closed when the current srv's Serve returned
}

// startPeer starts a peer on a port the system chooses; a payload over
// MaxPayloadBytes ends its stream.
func startPeer() (*peer, error) {
	p := &peer{addr: "127.0.0.1:0"}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *peer) address() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// start listens on p.addr and serves, unless serving; soon after a stop
// the port may not be free, so binding is tried for a second.
func (p *peer) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.srv != nil {
		return nil
	}
	var lis net.Listener
	var err error
	for deadline := time.Now().Add(time.Second); ; {
		if lis, err = net.Listen("tcp", p.addr); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("peer: listen on %s: %w", p.addr, err)
	}
	p.addr = lis.Addr().String()
	srv := grpc.NewServer(
		grpc.ForceServerCodecV2(codec{}),
		grpc.MaxRecvMsgSize(requestHeader+MaxPayloadBytes),
		grpc.WaitForHandlers(true), // Stop returns once every stream's handler has
	)
	srv.RegisterService(serviceDesc(), p)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(lis) // returns when stop closes the listener
	}()
	p.srv, p.served = srv, served
	return nil
}

// stop closes the listener and every connection at once, as a crash
// would, and returns once nothing the server started runs.
func (p *peer) stop() {
	p.mu.Lock()
	srv, served := p.srv, p.served
	p.srv, p.served = nil, nil
	p.mu.Unlock()
	if srv == nil {
		return
	}
	srv.Stop()
	<-served
}

// chat serves one stream: every request gets a reply with its id, a
// rejection if its payload does not match its checksum. A frame that
// cannot be read ends the stream.
func (p *peer) chat(ss grpc.ServerStream) error {
	for {
		var req request
		if err := ss.RecvMsg(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the client closed its side
			}
			return err
		}
		rep := reply{id: req.id}
		if got := checksum(req.payload); got != req.sum {
			rep.reject = fmt.Errorf("malformed: payload of %d bytes has CRC-32C %#08x, the message says %#08x", len(req.payload), got, req.sum).Error()
		}
		if err := ss.SendMsg(&rep); err != nil {
			return err
		}
	}
}

// request is a message from the client to the peer: its id, its payload,
// and the payload's CRC-32C as the sender computed it.
type request struct {
	id      uint64
	sum     uint32
	payload []byte
}

// reply is the peer's answer to the request of the same id.
type reply struct {
	id     uint64
	reject string // why the peer refused it, if it did
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

func checksum(payload []byte) uint32 {
	return crc32.Checksum(payload, crc32.MakeTable(crc32.Castagnoli))
}

// codec is the lab's gRPC codec, by hand (no protoc, and the tests can
// send raw bad frames).
type codec struct{}

func (codec) Name() string { return codecName }

func (codec) Marshal(v any) (mem.BufferSlice, error) {
	var b []byte
	switch m := v.(type) {
	case *request:
		b = binary.BigEndian.AppendUint32(frame(kindRequest, m.id, 4+len(m.payload)), m.sum)
		b = append(b, m.payload...)
	case *reply:
		b = append(frame(kindReply, m.id, len(m.reject)), m.reject...)
	default:
		return nil, fmt.Errorf("%s codec: cannot encode %T", codecName, v)
	}
	return mem.BufferSlice{mem.SliceBuffer(b)}, nil
}

func frame(kind byte, id uint64, more int) []byte {
	return binary.BigEndian.AppendUint64(append(make([]byte, 0, replyHeader+more), kind), id)
}

// Unmarshal decodes one frame; gRPC frees data when it returns, so the
// payload is kept in Materialize's copy.
func (codec) Unmarshal(data mem.BufferSlice, v any) error {
	b := data.Materialize()
	switch m := v.(type) {
	case *request:
		if err := checkFrame(b, kindRequest, requestHeader); err != nil {
			return err
		}
		m.id, m.sum, m.payload = binary.BigEndian.Uint64(b[1:]), binary.BigEndian.Uint32(b[9:]), b[requestHeader:]
	case *reply:
		if err := checkFrame(b, kindReply, replyHeader); err != nil {
			return err
		}
		m.id, m.reject = binary.BigEndian.Uint64(b[1:]), string(b[replyHeader:])
	default:
		return fmt.Errorf("%s codec: cannot decode into %T", codecName, v)
	}
	return nil
}

func checkFrame(b []byte, kind byte, header int) error {
	if len(b) < header {
		return fmt.Errorf("%s codec: frame of %d bytes, shorter than the %d-byte header of a %c frame", codecName, len(b), header, kind)
	}
	if b[0] != kind {
		return fmt.Errorf("%s codec: frame of kind %#x, want %c", codecName, b[0], kind)
	}
	return nil
}
