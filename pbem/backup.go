package pbem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"fieldpost/pbem/store"
)

// BackupInfo describes a backup made.
type BackupInfo struct {
	Path  string // absolute
	Size  int64
	Games int
}

// Backup copies the database, consistent as it is at one moment even
// while the judge writes to it, to a file at path, mode 0600: first to a
// temporary file beside it, checked to open as a judge's database, then
// renamed. The copy holds no server key: the key file must be kept too.
func (a *AdminConn) Backup(ctx context.Context, path string) (*BackupInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if sameFile(abs, a.database) {
		return nil, fmt.Errorf("%s is the database itself", path)
	}
	f, err := os.CreateTemp(filepath.Dir(abs), filepath.Base(abs)+".*.tmp")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after the rename, there is nothing left to remove
	err = f.Chmod(0o600)
	if err == nil {
		err = a.backupTo(ctx, f)
	}
	if err := errors.Join(err, f.Sync(), f.Close()); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	info := &BackupInfo{Path: abs}
	copied, err := openStore(tmp, true, adminOpenTimeout)
	if err != nil {
		return nil, fmt.Errorf("the backup does not open: %w", err)
	}
	var games []GameInfo
	err = copied.db.CatchDamage(func() (err error) {
		games, err = copied.Games(a.systems)
		return err
	})
	if err := errors.Join(err, copied.Close()); err != nil {
		return nil, fmt.Errorf("the backup does not read: %w", err)
	}
	info.Games = len(games)
	fi, err := os.Stat(tmp)
	if err != nil {
		return nil, err
	}
	info.Size = fi.Size()
	if err := os.Rename(tmp, abs); err != nil {
		return nil, err
	}
	return info, nil
}

func (a *AdminConn) backupTo(ctx context.Context, w io.Writer) error {
	if !a.live {
		return a.store.db.View(func(tx *store.Tx) error {
			_, err := tx.WriteTo(w)
			return err
		})
	}
	_, err := a.call(ctx, &controlRequest{Op: opBackup}, func(r io.Reader, size int64) error {
		n, err := io.Copy(w, r)
		if err == nil && n != size {
			err = fmt.Errorf("the judge sent %d of %d bytes", n, size)
		}
		return err
	})
	return err
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
