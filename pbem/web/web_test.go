package web

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fieldpost/engine"
	"fieldpost/templates"
)

// The tests here need no game: what the pages show of one is tested in
// package pbem, through the judge's own Source.

// newPages are pages with no Source: only what asks it nothing works.
func newPages(t *testing.T) (*Pages, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	p, err := New(nil, Config{Templates: templates.FS, Log: slog.New(slog.NewTextHandler(&logs, nil)),
		BaseURL: "https://club.example/pages", FormKey: []byte("a key of the test"), MaxOrders: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	return p, &logs
}

// Every answer keeps a secret in its address from leaking (no Referer),
// loads nothing from elsewhere and stays out of frames; a player's
// page is never cached; an address that is no page is the not-found page.
func TestSecurityHeaders(t *testing.T) {
	p, _ := newPages(t)
	h := p.Handler()
	for _, path := range []string{"/nothing", "/p/aaaa/x/y", "/static/style.css", "/g/"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		hdr := rec.Result().Header
		if hdr.Get("Referrer-Policy") != "no-referrer" || hdr.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(hdr.Get("Content-Security-Policy"), "default-src 'self'") ||
			!strings.Contains(hdr.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("GET %s: headers %v", path, hdr)
		}
		if private := strings.HasPrefix(path, "/p/"); private != (hdr.Get("Cache-Control") == "no-store") {
			t.Errorf("GET %s: Cache-Control %q", path, hdr.Get("Cache-Control"))
		}
		switch path {
		case "/static/style.css":
			if rec.Code != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/css") {
				t.Errorf("GET %s: %d %s", path, rec.Code, hdr.Get("Content-Type"))
			}
		default:
			if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "<html") {
				t.Errorf("GET %s: %d\n%s", path, rec.Code, rec.Body)
			}
		}
	}
}

// A post is the pages' own when its Origin is the host it was sent to or
// the pages' public address, or, from a browser that sends no Referer,
// "null" with Sec-Fetch-Site same-origin; anything else is refused.
func TestSameOrigin(t *testing.T) {
	const base = "https://club.example/pages"
	for _, c := range []struct {
		origin, site, base string
		want               bool
	}{
		{"http://judge.lan:8080", "", base, true}, // the host posted to
		{"HTTP://JUDGE.LAN:8080", "", base, true},
		{"https://club.example", "", base, true}, // behind a proxy
		{"http://club.example", "", base, false}, // another scheme
		{"https://club.example", "", "", false},  // no public address
		{"https://evil.example", "same-origin", base, false},
		{"http://judge.lan:8081", "", base, false},
		{"null", "same-origin", base, true},
		{"null", "cross-site", base, false},
		{"null", "", base, false},
		{"", "same-origin", base, false},
		{"", "", base, false},
		{"judge.lan:8080", "", base, false}, // no scheme: not an origin
	} {
		r := httptest.NewRequest("POST", "http://judge.lan:8080/p/secret/orders", nil)
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if c.site != "" {
			r.Header.Set("Sec-Fetch-Site", c.site)
		}
		if got := sameOrigin(r, c.base); got != c.want {
			t.Errorf("Origin %q, Sec-Fetch-Site %q, base %q: %v, want %v", c.origin, c.site, c.base, got, c.want)
		}
	}
}

// A form's token is good for the secret, game and round it was written
// for, and for nothing else; the key makes it.
func TestFormTokenBindsItsPage(t *testing.T) {
	key := []byte("a key of the test")
	token := formToken(key, "abcdefgh12345678", "g1", 3)
	if !validFormToken(key, token, "ABCDEFGH12345678", "g1", 3) {
		t.Error("the token does not check for its own page")
	}
	for _, c := range []struct {
		key          string
		secret, game string
		round        int
	}{
		{"a key of the test", "abcdefgh12345679", "g1", 3},
		{"a key of the test", "abcdefgh12345678", "g2", 3},
		{"a key of the test", "abcdefgh12345678", "g1", 4},
		{"another key", "abcdefgh12345678", "g1", 3},
	} {
		if validFormToken([]byte(c.key), token, c.secret, c.game, c.round) {
			t.Errorf("the token checks for %+v", c)
		}
	}
	if validFormToken(key, "", "abcdefgh12345678", "g1", 3) {
		t.Error("no token checks")
	}
	if newNonce() == newNonce() {
		t.Error("two showings of a form have the same nonce")
	}
}

// The picture cache holds at most maxCachedMaps pictures, and starts
// afresh past them.
func TestPictureCacheBounds(t *testing.T) {
	c := pictureCache{pics: map[string][]byte{}}
	for i := range 3 * maxCachedMaps {
		c.put(fmt.Sprint(i), []byte{byte(i)})
		if len(c.pics) > maxCachedMaps {
			t.Fatalf("%d pictures cached", len(c.pics))
		}
		if pic, ok := c.get(fmt.Sprint(i)); !ok || pic[0] != byte(i) {
			t.Fatalf("picture %d is not the one put", i)
		}
	}
}

// A game system that draws no SVG map sends the browser on to its PNG,
// asked to draw it once; an SVG asked for compressed comes compressed,
// and a map the system fails to draw is an error page that names no
// address.
func TestMapFormats(t *testing.T) {
	pages, logs := newPages(t)
	drawn := 0
	pngOnly := func(w io.Writer, f engine.MapFormat) error {
		drawn++
		if f != engine.PNG {
			return fmt.Errorf("no %s here: %w", f, engine.ErrMapFormat)
		}
		_, err := io.WriteString(w, "\x89PNG")
		return err
	}
	svg := func(w io.Writer, f engine.MapFormat) error {
		_, err := io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg"></svg>`)
		return err
	}
	broken := func(w io.Writer, f engine.MapFormat) error { return fmt.Errorf("the counters are lost") }
	serve := func(path string, f engine.MapFormat, draw func(io.Writer, engine.MapFormat) error, gzip bool) *http.Response {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		if gzip {
			req.Header.Set("Accept-Encoding", "gzip, deflate")
		}
		pages.picture(rec, req, f, func() (*Picture, error) { return &Picture{Key: path, Draw: draw}, nil })
		return rec.Result()
	}
	for range 2 {
		res := serve("/g/g1/round/3/map.svg", engine.SVG, pngOnly, false)
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/g/g1/round/3/map.png" {
			t.Errorf("an SVG the system does not draw: %d, to %q", res.StatusCode, res.Header.Get("Location"))
		}
	}
	if drawn != 1 {
		t.Errorf("the system was asked %d times for a map it does not draw", drawn)
	}
	res := serve("/g/g1/round/3/map.png", engine.PNG, pngOnly, false)
	if body, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || string(body) != "\x89PNG" {
		t.Errorf("the PNG: %d %v %q", res.StatusCode, res.Header, body)
	}
	res = serve("/g/g1/map.svg", engine.SVG, svg, true)
	body, _ := io.ReadAll(res.Body)
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil || res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("a compressed SVG: %v, headers %v", err, res.Header)
	}
	if plain, _ := io.ReadAll(zr); !strings.HasPrefix(string(plain), "<svg ") {
		t.Errorf("the compressed SVG holds %q", plain)
	}
	if res := serve("/p/secretsecret0000/map.png", engine.PNG, broken, false); res.StatusCode != http.StatusInternalServerError {
		t.Errorf("a map not drawn: %d", res.StatusCode)
	}
	if !strings.Contains(logs.String(), "the counters are lost") || strings.Contains(logs.String(), "secretsecret0000") {
		t.Errorf("the log of a map not drawn:\n%s", logs)
	}
}
