package club

import (
	"bytes"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"go.etcd.io/bbolt"
)

// systemFlags are the flags every mailbox offers.
var systemFlags = []imap.Flag{imap.FlagAnswered, imap.FlagDeleted, imap.FlagDraft, imap.FlagFlagged, imap.FlagSeen}

func (sess *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	var data *imap.SelectData
	err := sess.store.view(func(tx *bbolt.Tx) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		data = &imap.SelectData{NumMessages: bx.info.count, UIDNext: bx.info.uidNext, UIDValidity: bx.id}
		flags := slices.Clone(systemFlags)
		err = bx.each(func(m stored) error {
			if data.FirstUnseenSeqNum == 0 && !m.has(imap.FlagSeen) {
				data.FirstUnseenSeqNum = m.seq
			}
			for _, f := range m.flags {
				if !slices.Contains(flags, f) {
					flags = append(flags, f)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		data.Flags = flags
		data.PermanentFlags = append(slices.Clone(flags), imap.FlagWildcard)
		sess.selected = &selection{id: bx.id, readOnly: options.ReadOnly, tracker: sess.store.tracker(bx.id, bx.info.count).NewSession()}
		return nil
	})
	return data, err
}

func (sess *imapSession) Unselect() error {
	sess.selected.tracker.Close()
	sess.selected = nil
	return nil
}

func (sess *imapSession) Create(name string, _ *imap.CreateOptions) error {
	name = strings.TrimRight(name, string(mailboxDelim))
	if name == "" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Text: "A mailbox needs a name"}
	}
	return sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		if acct.Bucket(bucketNames).Get([]byte(name)) != nil {
			return errMailboxExists
		}
		_, err = createMailbox(tx, acct, name)
		return err
	})
}

var errMailboxExists = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}

// Delete deletes a mailbox and its messages. INBOX cannot be deleted (RFC
// 3501, 6.3.4): deliveries need it.
func (sess *imapSession) Delete(name string) error {
	if name == "INBOX" { // the parser writes INBOX in upper case
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted"}
	}
	var id uint32
	err := sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		id = bx.id
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		if err := acct.Bucket(bucketNames).Delete([]byte(name)); err != nil {
			return err
		}
		return acct.Bucket(bucketBoxes).DeleteBucket(u32key(id))
	})
	if err == nil {
		sess.store.forgetTracker(id)
	}
	return err
}

// Rename renames a mailbox and the mailboxes below it; they keep their
// UIDVALIDITY, since their messages keep their UIDs. INBOX cannot be
// renamed: RFC 3501 (6.3.5) wants its messages moved to the new mailbox
// and INBOX left empty, which this server does not do.
func (sess *imapSession) Rename(oldName, newName string, _ *imap.RenameOptions) error {
	if oldName == "INBOX" {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be renamed on this server"}
	}
	newName = strings.TrimRight(newName, string(mailboxDelim))
	return sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		names := acct.Bucket(bucketNames)
		if names.Get([]byte(oldName)) == nil {
			return errNoMailbox
		}
		renames := map[string]string{oldName: newName}
		prefix := oldName + string(mailboxDelim)
		err = names.ForEach(func(k, _ []byte) error {
			if rest, ok := strings.CutPrefix(string(k), prefix); ok {
				renames[string(k)] = newName + string(mailboxDelim) + rest
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, to := range renames {
			if names.Get([]byte(to)) != nil {
				return errMailboxExists
			}
		}
		for from, to := range renames {
			id := bytes.Clone(names.Get([]byte(from)))
			if err := names.Delete([]byte(from)); err != nil {
				return err
			}
			if err := names.Put([]byte(to), id); err != nil {
				return err
			}
		}
		return nil
	})
}

func (sess *imapSession) Subscribe(name string) error { return sess.setSubscribed(name, true) }

func (sess *imapSession) Unsubscribe(name string) error { return sess.setSubscribed(name, false) }

func (sess *imapSession) setSubscribed(name string, subscribed bool) error {
	return sess.store.change(func(tx *bbolt.Tx, _ *queue) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		bx.info.subscribed = subscribed
		return bx.saveInfo()
	})
}

func (sess *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailboxDelim})
	}
	var list []imap.ListData
	err := sess.store.db.View(func(tx *bbolt.Tx) error {
		acct, err := accountBucket(tx, sess.account.Name)
		if err != nil {
			return err
		}
		return acct.Bucket(bucketNames).ForEach(func(k, _ []byte) error {
			name := string(k)
			if !slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, mailboxDelim, ref, p) }) {
				return nil
			}
			bx, err := openBox(tx, sess.account.Name, name)
			if err != nil {
				return err
			}
			// No mailbox has a special use.
			if (options.SelectSubscribed && !bx.info.subscribed) || options.SelectSpecialUse {
				return nil
			}
			data := imap.ListData{Mailbox: name, Delim: mailboxDelim}
			if bx.info.subscribed {
				data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
			}
			if options.ReturnStatus != nil {
				if data.Status, err = statusData(bx, name, options.ReturnStatus); err != nil {
					return err
				}
			}
			list = append(list, data)
			return nil
		})
	})
	if err != nil {
		return err
	}
	for i := range list {
		if err := w.WriteList(&list[i]); err != nil {
			return err
		}
	}
	return nil
}

func (sess *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	var data *imap.StatusData
	err := sess.store.db.View(func(tx *bbolt.Tx) error {
		bx, err := openBox(tx, sess.account.Name, name)
		if err != nil {
			return err
		}
		data, err = statusData(bx, name, options)
		return err
	})
	return data, err
}

func statusData(bx *box, name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	data := &imap.StatusData{Mailbox: name}
	if options.NumMessages {
		data.NumMessages = &bx.info.count
	}
	if options.UIDNext {
		data.UIDNext = bx.info.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = bx.id
	}
	if options.NumRecent { // there is no \Recent (IMAP4rev2 dropped it)
		data.NumRecent = new(uint32)
	}
	if !options.NumUnseen && !options.NumDeleted && !options.Size {
		return data, nil
	}
	var unseen, deleted uint32
	var size int64
	err := bx.each(func(m stored) error {
		if !m.has(imap.FlagSeen) {
			unseen++
		}
		if m.has(imap.FlagDeleted) {
			deleted++
		}
		size += m.size
		return nil
	})
	if options.NumUnseen {
		data.NumUnseen = &unseen
	}
	if options.NumDeleted {
		data.NumDeleted = &deleted
	}
	if options.Size {
		data.Size = &size
	}
	return data, err
}

// errTryCreate answers a command whose destination mailbox is missing.
var errTryCreate = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
