package store

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"
)

// The positions and round records of games are stored deflated:
// their JSON repeats itself (a division round's events are 30 KB of it),
// and the store of a club's campaigns grows by them every round. A packed
// value starts with packedPrefix, which no JSON does, so the values
// stored before packing read as they are.
var packedPrefix = []byte{0, 'z'}

// deflaters keeps deflate deflaters, whose state is large to allocate.
var deflaters = sync.Pool{New: func() any {
	w, err := flate.NewWriter(nil, flate.BestSpeed)
	if err != nil {
		panic(err) // only for a bad level
	}
	return w
}}

// inflaters keeps deflate readers, for the same reason.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// pack deflates a value for the store.
func pack(raw []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(raw)/4 + len(packedPrefix) + 16)
	b.Write(packedPrefix)
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&b)
	// Writes to a bytes.Buffer do not fail.
	w.Write(raw)
	w.Close()
	return b.Bytes()
}

// unpack returns a stored value as it was given to pack; a value stored
// unpacked is returned as it is.
func unpack(v []byte) ([]byte, error) {
	if !bytes.HasPrefix(v, packedPrefix) {
		return v, nil
	}
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(v[len(packedPrefix):]), nil); err != nil {
		return nil, fmt.Errorf("inflating a stored value: %w", err)
	}
	// JSON deflates to a fifth or less: one growth at most, mostly none.
	b := bytes.NewBuffer(make([]byte, 0, 6*len(v)))
	if _, err := b.ReadFrom(r); err != nil {
		return nil, fmt.Errorf("inflating a stored value: %w", err)
	}
	return b.Bytes(), nil
}
