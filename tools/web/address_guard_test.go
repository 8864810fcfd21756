package web

import (
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"testing"
)

func TestCheckPublicAddr(t *testing.T) {
	tests := []struct {
		addr   string
		public bool
	}{
		{"127.0.0.1", false},
		{"127.8.9.10", false},
		{"::1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"fc00::1", false},
		{"0.0.0.0", false},
		{"::", false},
		{"100.64.0.1", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"64:ff9b::a00:1", false},
		{"224.0.0.1", false},
		{"ff02::1", false},
		{"255.255.255.255", false},
		{"8.8.8.8", true},
		{"1.1.1.1", true},
		{"93.184.216.34", true},
		{"2606:4700:4700::1111", true},
		{"::ffff:8.8.8.8", true},
	}
	for _, tt := range tests {
		err := checkPublicAddr(netip.MustParseAddr(tt.addr))
		if tt.public && err != nil {
			t.Errorf("checkPublicAddr(%s) = %v, want nil", tt.addr, err)
		}
		if !tt.public && !errors.Is(err, ErrPrivateAddress) {
			t.Errorf("checkPublicAddr(%s) = %v, want ErrPrivateAddress", tt.addr, err)
		}
	}
}

func TestPublicOnlyControl(t *testing.T) {
	tests := []struct {
		address string
		public  bool
	}{
		{"127.0.0.1:80", false},
		{"[::1]:443", false},
		{"[fe80::1%eth0]:80", false},
		{"not-an-address", false},
		{"8.8.8.8:53", true},
		{"[2606:4700:4700::1111]:443", true},
	}
	for _, tt := range tests {
		err := publicOnlyControl("tcp", tt.address, nil)
		if tt.public && err != nil {
			t.Errorf("publicOnlyControl(%s) = %v, want nil", tt.address, err)
		}
		if !tt.public && !errors.Is(err, ErrPrivateAddress) {
			t.Errorf("publicOnlyControl(%s) = %v, want ErrPrivateAddress", tt.address, err)
		}
	}
}

// roundTripFunc is a RoundTripper the guard cannot see into.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestGuardTransport(t *testing.T) {
	proxied := &http.Transport{Proxy: http.ProxyURL(&url.URL{Scheme: "http", Host: "proxy.example:3128"})}
	tests := []struct {
		name    string
		rt      http.RoundTripper
		wantErr bool
	}{
		{name: "nil gets the default guarded transport", rt: nil},
		{name: "plain transport is cloned and guarded", rt: &http.Transport{MaxIdleConns: 3}},
		{name: "proxy hides the target", rt: proxied, wantErr: true},
		{name: "own dial function", rt: &http.Transport{DialContext: (&net.Dialer{}).DialContext}, wantErr: true},
		{name: "opaque round tripper", rt: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil }), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := guardTransport(tt.rt)
			if tt.wantErr {
				if !errors.Is(err, ErrUnguardableTransport) {
					t.Fatalf("guardTransport error = %v, want ErrUnguardableTransport", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("guardTransport: %v", err)
			}
			tr, ok := got.(*http.Transport)
			if !ok || tr == tt.rt || tr.DialContext == nil || tr.Proxy != nil {
				t.Fatalf("guardTransport = %#v, want a new proxy-less *http.Transport with a guarded dialer", got)
			}
			if orig, ok := tt.rt.(*http.Transport); ok {
				if orig.DialContext != nil {
					t.Error("guardTransport changed the caller's transport")
				}
				if tr.MaxIdleConns != orig.MaxIdleConns {
					t.Errorf("MaxIdleConns = %d, want the caller's %d", tr.MaxIdleConns, orig.MaxIdleConns)
				}
			}
		})
	}
}
