// Package club is a small mail server embedded in Fieldpost, so that a
// newcomer trying Fieldpost, or a club on a LAN evening, can play by email
// without owning a mail server.
//
// It serves IMAP (go-imap's imapserver, over its own backend) and SMTP
// submission (go-smtp) for a few accounts of one domain, "fieldpost.local"
// by default: "judge" for Fieldpost itself and one per player. Every account
// has one mailbox tree, INBOX plus the folders its clients create (the
// judge creates "Processed").
//
// The mailboxes are kept in a bbolt file (Config.MailFile): messages,
// flags, UIDs, UIDNEXT and UIDVALIDITY survive a restart, and a change is
// committed to disk before the IMAP or SMTP command that made it is
// answered, so a crash loses nothing a client was told was done. A
// mailbox's UIDVALIDITY is never given to another mailbox of the file (see
// store.go), so a client's cache is never taken for the new mail's.
//
// What it is not:
//
//   - It is not an Internet mail server. It never relays: mail to an address
//     outside its domain is refused with 550, and nothing from outside can
//     reach it. It speaks no TLS: logins and mail travel in clear text, which
//     is harmless on loopback (the default listen addresses are 127.0.0.1)
//     and acceptable only on a trusted LAN. IMAP plain-text login is allowed
//     for that reason (imapserver's InsecureAuth), and so is SMTP AUTH
//     without TLS.
//
// Addresses are NAME@DOMAIN. Plus-addressing delivers NAME+TAG@DOMAIN to
// NAME's INBOX; each delivered copy starts with a Delivered-To field giving
// the recipient exactly as the sender wrote it (tag included, case kept) and
// a Return-Path field with the envelope sender. That is how the judge reads
// the player's secret from judge+TOKEN@DOMAIN. The tag is never logged,
// since it is a secret.
//
// Sending needs SMTP AUTH PLAIN with the account's credentials, on loopback
// too: every mail client can authenticate, the daemon delivers through
// [Server.Deliver] or authenticates as "judge", and an open submission port
// on a LAN would let anyone write as anyone. An authenticated client may use
// as envelope sender only its own address (tags allowed) or the null sender
// "<>", so that Return-Path is true and a mail program set up with another
// address fails at once with a clear message rather than never getting the
// judge's answers.
package club
