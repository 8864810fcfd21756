package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrPrivateAddress means a fetch target is, or resolved to, a loopback,
// private, link-local or otherwise non-public address, which web_fetch
// refuses unless FetchConfig.AllowPrivate is set.
var ErrPrivateAddress = errors.New("address is not public")

// ErrUnguardableTransport means FetchConfig.Client's transport does not let
// the private-address guard see the addresses it dials.
var ErrUnguardableTransport = errors.New("transport cannot be guarded against private addresses")

// nonPublicPrefixes are special-purpose ranges that netip's predicates do
// not cover but that must not be reachable from a fetch either.
var nonPublicPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, incl. broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: can embed a private IPv4
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/32"),       // Teredo: can embed a private IPv4
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4: can embed a private IPv4
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated
}

// checkPublicAddr returns an error wrapping ErrPrivateAddress unless ip is a
// public unicast address.
func checkPublicAddr(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() {
		return fmt.Errorf("%s: %w", ip, ErrPrivateAddress)
	}
	for _, p := range nonPublicPrefixes {
		if p.Contains(ip) {
			return fmt.Errorf("%s: %w", ip, ErrPrivateAddress)
		}
	}
	return nil
}

// publicOnlyControl is a net.Dialer Control func: it runs after name
// resolution, on the very address about to be dialled, so neither a hostname
// resolving to a private address nor a redirect to one gets through.
func publicOnlyControl(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("check dial address %q: %w", address, ErrPrivateAddress)
	}
	if err := checkPublicAddr(ap.Addr()); err != nil {
		return fmt.Errorf("dial %s: %w", network, err)
	}
	return nil
}

// newFetchTransport returns the transport web_fetch uses when the caller
// gives none. With guard set it dials only public addresses and uses no
// proxy (a proxy would hide the real target from the guard).
func newFetchTransport(guard bool) *http.Transport {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	if guard {
		dialer.Control = publicOnlyControl
	} else {
		t.Proxy = http.ProxyFromEnvironment
	}
	return t
}

// guardTransport returns rt with the private-address guard installed. rt
// must be nil or an *http.Transport that neither dials by its own functions
// nor goes through a proxy, since either would hide the real target.
func guardTransport(rt http.RoundTripper) (http.RoundTripper, error) {
	if rt == nil {
		return newFetchTransport(true), nil
	}
	t, ok := rt.(*http.Transport)
	if !ok {
		return nil, fmt.Errorf("guard %T: %w: use an *http.Transport or nil, or set AllowPrivate if the transport guards itself", rt, ErrUnguardableTransport)
	}
	if t.Proxy != nil {
		return nil, fmt.Errorf("guard transport: %w: it uses a proxy, which hides the target address; unset Proxy or set AllowPrivate", ErrUnguardableTransport)
	}
	// The deprecated Dial and DialTLS hooks would bypass the guard too.
	if t.DialContext != nil || t.Dial != nil || t.DialTLSContext != nil || t.DialTLS != nil {
		return nil, fmt.Errorf("guard transport: %w: it has its own dial function; leave dialling to the guard or set AllowPrivate", ErrUnguardableTransport)
	}
	guarded := t.Clone()
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: publicOnlyControl}
	guarded.DialContext = dialer.DialContext
	return guarded, nil
}
