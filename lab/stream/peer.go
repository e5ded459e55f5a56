package stream

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc"
)

// The one method of the peer's service: a bidirectional stream of
// requests one way and replies the other.
const (
	serviceName = "brewput.stream.Peer"
	chatName    = "Chat"
	chatMethod  = "/" + serviceName + "/" + chatName
)

// chatter is what the service needs of its implementation; the
// ServiceDesc's HandlerType, which grpc checks the peer against.
type chatter interface {
	chat(grpc.ServerStream) error
}

// chatStream describes the Chat stream, for the server and for the
// client's NewStream. A function, not a package variable, so that no
// caller can change it for another.
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

// serviceDesc is the peer's service, written by hand in place of what
// protoc would generate.
func serviceDesc() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: serviceName,
		HandlerType: (*chatter)(nil),
		Streams:     []grpc.StreamDesc{*chatStream()},
	}
}

// peer is the other end of the stream: a gRPC server on 127.0.0.1 that
// answers each request with a reply of the same id, in the order the
// requests came, and that can be stopped and started again on the same
// address, as a peer that restarts would be.
type peer struct {
	maxPayload int

	mu     sync.Mutex
	addr   string        // 127.0.0.1:port, chosen by the system at the first start
	srv    *grpc.Server  // nil while stopped
	served chan struct{} // closed when the current srv's Serve returned
}

// startPeer starts a peer on a port the system chooses. It accepts
// payloads of up to maxPayload bytes; a larger frame ends its stream with
// an error (gRPC's MaxRecvMsgSize), as any frame it cannot decode does.
func startPeer(maxPayload int) (*peer, error) {
	p := &peer{maxPayload: maxPayload, addr: "127.0.0.1:0"}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

// address is where the peer listens.
func (p *peer) address() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// start listens on p.addr and serves; a no-op while serving. Restarted
// soon after a stop, the port may not be free at once, so binding is
// tried for up to a second.
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
		grpc.MaxRecvMsgSize(requestHeader+p.maxPayload),
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
// would: streams in progress end with an error on the client's side. It
// returns once nothing the server started is running; a no-op while
// stopped.
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
// cannot be read (too large, undecodable) ends the stream with gRPC's
// error status: a stream cannot skip one message and go on, since the
// bytes of the next are not known to start where gRPC would look.
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
			rep.reject = fmt.Sprintf("malformed: payload of %d bytes has CRC-32C %#08x, the message says %#08x", len(req.payload), got, req.sum)
		}
		if err := ss.SendMsg(&rep); err != nil {
			return err
		}
	}
}
