package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// folderLock keeps a second `fieldpost serve` out of a data folder (or a
// database) in use: it is taken before serve does anything else, so that a
// mistaken second start changes nothing and mails nobody. The lock is an
// flock on a file beside the database holding the holder's process id; the
// system releases it when the process ends, however it ends, so a file
// left by a killed judge never blocks the next start.
type folderLock struct {
	f *os.File
}

// lockFile is the lock file of a database.
func lockFile(database string) string { return database + ".lock" }

// lockDatabase takes the lock of database for this process, or says which
// process holds it; what names the database for a person ("the data folder
// fieldpost-data").
func lockDatabase(database, what string) (*folderLock, error) {
	path := lockFile(database)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("taking the lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is in use by another fieldpost serve, process %s (its id is in %s): stop it first",
				what, strings.TrimSpace(string(holder)), path)
		}
		return nil, fmt.Errorf("taking the lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing the lock %s: %w", path, err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing the lock %s: %w", path, err)
	}
	return &folderLock{f: f}, nil
}

// release lets the next serve in. The file stays: removing it would let a
// serve that opened it meanwhile lock a file no longer in the folder.
func (l *folderLock) release() { l.f.Close() }
