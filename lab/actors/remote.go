package actors

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/mem"
)

// The gRPC service, by hand without protoc: one unary method, Next, with a
// codec given to its server and connection.
const (
	serviceName = "brewput.actors.Ipseity"
	nextMethod  = "/" + serviceName + "/Next"
)

type request struct{ client uint32 }

// codec encodes a request as the client's number, 4 bytes big-endian, and
// a Reply as its identity, 8 bytes big-endian, then the record.
type codec struct{}

func (codec) Name() string { return "brewput-actors" }

func (codec) Marshal(v any) (mem.BufferSlice, error) {
	switch m := v.(type) {
	case *request:
		return mem.BufferSlice{mem.SliceBuffer(binary.BigEndian.AppendUint32(nil, m.client))}, nil
	case *Reply:
		// Two buffers: the record goes out as it is, without a copy.
		return mem.BufferSlice{mem.SliceBuffer(binary.BigEndian.AppendUint64(nil, m.ID)), mem.SliceBuffer(m.Record)}, nil
	}
	return nil, fmt.Errorf("actors codec: cannot encode %T", v)
}

func (codec) Unmarshal(data mem.BufferSlice, v any) error {
	switch m := v.(type) {
	case *request:
		var b [4]byte
		if data.Len() != len(b) {
			return fmt.Errorf("actors codec: request of %d bytes, want %d", data.Len(), len(b))
		}
		data.CopyTo(b[:])
		m.client = binary.BigEndian.Uint32(b[:])
		return nil
	case *Reply:
		// data is freed on return: the reply keeps a copy.
		b := data.Materialize()
		if len(b) < 8 {
			return fmt.Errorf("actors codec: reply of %d bytes, want at least 8", len(b))
		}
		m.ID, m.Record = binary.BigEndian.Uint64(b), b[8:]
		return nil
	}
	return fmt.Errorf("actors codec: cannot decode into %T", v)
}

func serviceDesc() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: serviceName,
		HandlerType: (*Service)(nil),
		Methods:     []grpc.MethodDesc{{MethodName: "Next", Handler: handleNext}},
		Metadata:    "actors",
	}
}

func handleNext(srv any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	var req request
	if err := dec(&req); err != nil {
		return nil, err
	}
	rep := srv.(Service).Next(int(req.client))
	return &rep, nil
}

// endpoint is a Service served by a gRPC server on 127.0.0.1, and a client
// connection to it.
type endpoint struct {
	svc    Service
	server *grpc.Server
	served chan error
	conn   *grpc.ClientConn
}

const readyTimeout = 10 * time.Second

// serve starts a gRPC server for svc on 127.0.0.1 and connects to it,
// ready before a run's clock starts; on error it stops all, svc included.
func serve(ctx context.Context, svc Service) (*endpoint, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		svc.Close()
		return nil, fmt.Errorf("gRPC server: %w", err)
	}
	// WaitForHandlers: the service closes once every handler has returned.
	r := &endpoint{
		svc:    svc,
		server: grpc.NewServer(grpc.ForceServerCodecV2(codec{}), grpc.WaitForHandlers(true)),
		served: make(chan error, 1),
	}
	r.server.RegisterService(serviceDesc(), svc)
	go func() { r.served <- r.server.Serve(lis) }()

	r.conn, err = grpc.NewClient(lis.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodecV2(codec{})))
	if err == nil {
		err = r.waitReady(ctx)
	}
	if err != nil {
		r.close()
		return nil, fmt.Errorf("gRPC client: %w", err)
	}
	return r, nil
}

func (r *endpoint) waitReady(ctx context.Context) error {
	wait, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	r.conn.Connect()
	for s := r.conn.GetState(); s != connectivity.Ready; s = r.conn.GetState() {
		if !r.conn.WaitForStateChange(wait, s) {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fmt.Errorf("connection to %s still %s after %v", r.conn.Target(), s, readyTimeout)
		}
	}
	return nil
}

func (r *endpoint) next(ctx context.Context, client int) (Reply, error) {
	var rep Reply
	err := r.conn.Invoke(ctx, nextMethod, &request{client: uint32(client)}, &rep)
	if err != nil {
		// gRPC fails a call past its deadline before ctx's own timer
		// fires: wait for it, so that the caller sees ctx's error.
		if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
			<-ctx.Done()
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	return rep, err
}

// close closes the connection, stops the server once its handlers have
// returned, then the service; its error is Serve's, other than a stop.
func (r *endpoint) close() error {
	if r.conn != nil {
		r.conn.Close()
	}
	r.server.Stop()
	err := <-r.served
	r.svc.Close()
	if errors.Is(err, grpc.ErrServerStopped) {
		err = nil
	}
	return err
}
