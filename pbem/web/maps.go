package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"net/http"
	"strings"
	"sync"

	"fieldpost/engine"
)

// The pages show the SVG map, which stays sharp at every zoom; a game
// system that does not draw SVG sends the browser on to the PNG.

// maxCachedMaps bounds the map cache; past it the cache starts afresh.
const maxCachedMaps = 256

// pictureCache keeps the pictures drawn, by their keys: a position never
// changes once stored, so a picture is drawn once.
type pictureCache struct {
	mu   sync.Mutex
	pics map[string][]byte
}

func (c *pictureCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pic, ok := c.pics[key]
	return pic, ok
}

func (c *pictureCache) put(key string, pic []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pics) >= maxCachedMaps {
		c.pics = map[string][]byte{}
	}
	c.pics[key] = pic
}

// mapTypes are the content types of the map formats the pages serve.
var mapTypes = map[engine.MapFormat]string{engine.PNG: "image/png", engine.SVG: "image/svg+xml"}

// picture serves the map find names in format f, drawn once. A system
// that does not draw an SVG sends the browser to the PNG at the same
// place.
func (p *Pages) picture(rw http.ResponseWriter, r *http.Request, f engine.MapFormat, find func() (*Picture, error)) {
	pic, err := find()
	if err != nil {
		p.fail(rw, r, err)
		return
	}
	key := pic.Key + "/" + string(f)
	data, ok := p.maps.get(key)
	if !ok {
		var b bytes.Buffer
		err := pic.Draw(&b, f)
		switch {
		case errors.Is(err, engine.ErrMapFormat) && f != engine.PNG:
			// Remembered as drawn in no bytes.
		case err != nil:
			p.fail(rw, r, err)
			return
		}
		data = b.Bytes()
		if err != nil {
			data = []byte{}
		}
		p.maps.put(key, data)
	}
	if len(data) == 0 && f != engine.PNG {
		http.Redirect(rw, r, strings.TrimSuffix(r.URL.Path, "."+string(f))+".png", http.StatusFound)
		return
	}
	rw.Header().Set("Content-Type", mapTypes[f])
	if f == engine.SVG {
		// An SVG is text: compressed it is a fifth of its size.
		rw.Header().Set("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			rw.Header().Set("Content-Encoding", "gzip")
			data = p.gzipped(key, data)
		}
	}
	rw.Write(data)
}

// gzipped is a picture compressed, kept beside it.
func (p *Pages) gzipped(key string, pic []byte) []byte {
	key += "/gzip"
	if gz, ok := p.maps.get(key); ok {
		return gz
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(pic) // writing to memory cannot fail
	zw.Close()
	p.maps.put(key, b.Bytes())
	return b.Bytes()
}
