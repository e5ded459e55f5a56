package stream

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
)

func TestCodec(t *testing.T) {
	var cd codec
	req := request{id: 1<<40 + 3, sum: checksum([]byte("hello")), payload: []byte("hello")}
	b, err := cd.Marshal(&req)
	if err != nil {
		t.Fatal(err)
	}
	var back request
	if err := cd.Unmarshal(b, &back); err != nil || back.id != req.id || back.sum != req.sum || !bytes.Equal(back.payload, req.payload) {
		t.Errorf("request %+v came back as %+v, %v", req, back, err)
	}
	for _, rep := range []reply{{id: 7}, {id: 8, reject: "malformed: no"}} {
		b, err := cd.Marshal(&rep)
		if err != nil {
			t.Fatal(err)
		}
		var back reply
		if err := cd.Unmarshal(b, &back); err != nil || back != rep {
			t.Errorf("reply %+v came back as %+v, %v", rep, back, err)
		}
	}
	// A reply frame is no request, and a frame shorter than its header
	// is nothing.
	repFrame, _ := cd.Marshal(&reply{id: 1, reject: "a long enough reason"})
	for name, tc := range map[string]struct {
		frame mem.BufferSlice
		into  any
	}{
		"empty":              {mem.BufferSlice{}, &request{}},
		"short request":      {mem.BufferSlice{mem.SliceBuffer([]byte{kindRequest, 0, 0, 0})}, &request{}},
		"short reply":        {mem.BufferSlice{mem.SliceBuffer([]byte{kindReply, 0})}, &reply{}},
		"reply as a request": {repFrame, &request{}},
		"request as a reply": {b, &reply{}},
		"another type":       {b, new(string)},
	} {
		if err := cd.Unmarshal(tc.frame, tc.into); err == nil || !strings.Contains(err.Error(), codecName) {
			t.Errorf("%s: Unmarshal = %v, want the codec's error", name, err)
		}
	}
	if _, err := cd.Marshal("text"); err == nil {
		t.Errorf("Marshal of a string succeeded")
	}
}

// rawCodec sends and receives frames as they are, to give the peer what
// the lab's client never would.
type rawCodec struct{}

func (rawCodec) Name() string { return "raw" }
func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	return mem.BufferSlice{mem.SliceBuffer(*v.(*[]byte))}, nil
}
func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	*v.(*[]byte) = data.Materialize()
	return nil
}

// rawConn is a connection to addr that sends raw frames.
func rawConn(t *testing.T, addr string, opts ...grpc.CallOption) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient("passthrough:///"+addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(append([]grpc.CallOption{grpc.ForceCodecV2(rawCodec{})}, opts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestPeerSurvivesBadFrames: frames the peer cannot decode, or larger than
// it accepts, end their stream with an error status, not the peer: a
// well-formed frame is still answered on another stream, and the lab's
// client still gets its replies.
func TestPeerSurvivesBadFrames(t *testing.T) {
	p, err := startPeer()
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	conn := rawConn(t, p.address())
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	exchange := func(frame []byte) ([]byte, error) {
		st, err := conn.NewStream(ctx, chatStream(), chatMethod)
		if err != nil {
			return nil, err
		}
		if err := st.SendMsg(&frame); err != nil {
			return nil, err
		}
		var out []byte
		err = st.RecvMsg(&out)
		return out, err
	}
	good := []byte{kindRequest, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0, 0} // id 42, empty payload, whose CRC-32C is 0
	for _, tc := range []struct {
		name  string
		frame []byte
		code  codes.Code
	}{
		{"empty frame", []byte{}, codes.Internal},
		{"short frame", []byte{kindRequest, 1, 2}, codes.Internal},
		{"wrong kind", append([]byte{'X'}, good[1:]...), codes.Internal},
		{"oversized frame", make([]byte, requestHeader+MaxPayloadBytes+1), codes.ResourceExhausted},
	} {
		_, err := exchange(tc.frame)
		if status.Code(err) != tc.code {
			t.Errorf("%s: %v, want an error status %v", tc.name, err, tc.code)
		}
		out, err := exchange(good)
		if err != nil || !bytes.Equal(out, []byte{kindReply, 0, 0, 0, 0, 0, 0, 0, 42}) {
			t.Errorf("after the %s, a good frame got %q, %v; want the reply to id 42", tc.name, out, err)
		}
	}

	cl, err := dial(ctx, p.address(), clientConfig{async: true, buffer: 1, reconnect: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.close()
	for i := range 10 {
		payload := []byte{byte(i)}
		if o, ok := cl.send(ctx, payload, checksum(payload)).wait(ctx); !ok || o.err != nil {
			t.Errorf("message %d after the bad frames: %v", i, o.err)
		}
	}
}

// TestOversizedSendEndsTheStream is why the client refuses oversized
// messages itself: gRPC's SendMsg, given a message over the size it may
// send, fails and ends the whole stream, so that every message in flight
// on it would fail too.
func TestOversizedSendEndsTheStream(t *testing.T) {
	p, err := startPeer()
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop()
	conn := rawConn(t, p.address(), grpc.MaxCallSendMsgSize(requestHeader+10))
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := conn.NewStream(ctx, chatStream(), chatMethod)
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, requestHeader+11)
	big[0] = kindRequest
	if err := st.SendMsg(&big); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("oversized SendMsg: %v, want ResourceExhausted", err)
	}
	small := big[:requestHeader]
	err = st.SendMsg(&small)
	var out []byte
	if rerr := st.RecvMsg(&out); err == nil && rerr == nil {
		t.Errorf("the stream went on after an oversized SendMsg: got %q", out)
	}
}

// garbler is a peer that answers every request with a frame the client
// cannot decode.
type garbler struct{}

func (garbler) chat(ss grpc.ServerStream) error {
	for {
		var in []byte
		if err := ss.RecvMsg(&in); err != nil {
			return nil
		}
		junk := []byte{kindReply, 1} // shorter than a reply's header
		if err := ss.SendMsg(&junk); err != nil {
			return err
		}
	}
}

// TestUndecodableReply: a reply the client cannot decode breaks its stream
// (gRPC ends it), and the message fails as broken, in both modes; the
// client does not crash and the next message gets its own outcome.
func TestUndecodableReply(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.ForceServerCodecV2(rawCodec{}), grpc.WaitForHandlers(true))
	srv.RegisterService(serviceDesc(), garbler{})
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(lis)
	}()
	defer func() {
		srv.Stop()
		<-served
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, async := range []bool{false, true} {
		cl, err := dial(ctx, lis.Addr().String(), clientConfig{async: async, buffer: 1, reconnect: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			o, ok := cl.send(ctx, nil, checksum(nil)).wait(ctx)
			if !ok || !errors.Is(o.err, failBroken) {
				t.Errorf("async %v, message %d: %v (outcome %v), want it failed as broken", async, i, o.err, ok)
			}
		}
		if n := cl.reconnects(); n != 2 {
			t.Errorf("async %v: %d reconnects, want 2: a new stream for each message after the first", async, n)
		}
		cl.close()
	}
}
