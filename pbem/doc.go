// Package pbem runs games by mail: games, players, rounds, deadlines,
// commands and their bbolt store.
//
// A [Service] is the judge. Its [Service.Handle] is a mail.Handler: each
// inbound mail is authenticated by the player's secret (a token in the
// recipient address or a PASSWORD line, never the From address), read as
// orders or as a command, and answered. Everything one mail changes, and
// every mail it causes, is committed in one bbolt transaction; the mails
// wait in an outbox and [Service.Run] sends them after the commit, with
// retries, while it also watches deadlines and sends reminders. [Serve]
// wires a Service to an IMAP intake and an SMTP sender from a
// configuration (package fieldpost/pbem/config reads the file; options.go
// turns it into [Options]) and the [Hooks] a program adds beside it.
//
// The game pages' HTTP side is package fieldpost/pbem/web's; it asks the
// judge for what each page shows through a web.Source, which
// pagesource.go implements over the store: what each page may show to
// whom is decided there.
//
// docs/commands.md describes the commands; the mails follow
// docs/mail-format.md (one thread and List-Id per game, X-Fieldpost-*
// header fields, the order form at the end of the text).
package pbem
