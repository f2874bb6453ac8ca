// Package pbem runs games by mail: games, players, rounds, deadlines and
// commands, kept in the judge's database (package store).
//
// A [Service] is the judge. Its [Service.Handle] is a mail.Handler: each
// inbound mail is authenticated by the player's secret (a token in the
// recipient address or a PASSWORD line, never the From address), read as
// orders or as a command, and answered. Everything one mail changes, and
// every mail it causes, is committed in one store transaction; the mails
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
// Inside, one transaction is a txn (service.go): the mail or command in
// hand, its time, what it queued. txn handles the mail (service.go,
// auth.go) and does the commands (player.go, gm.go, talk.go, timezone.go);
// the rest is done by parts, each with one job, that the transaction
// lends itself to:
//
//   - storeTx (game.go): pbem's records over a store.Tx, decoded;
//   - t.rounds(), roundPlay (round.go, caretaker.go, deadline.go): opening
//     and playing rounds, the caretaker's orders, reliability, the reports;
//   - t.seats(), seating (people.go, address.go, absence.go,
//     unreachable.go): who holds each seat and how it changes hands;
//   - t.letters(), letters (letters.go, compose.go, outbox.go): the mail
//     it sends, composed and queued in the outbox;
//   - t.limits(), rateLimits (ratelimit.go): the rate limits' windows.
//
// docs/commands.md describes the commands; the mails follow
// docs/mail-format.md (one thread and List-Id per game, X-Fieldpost-*
// header fields, the order form at the end of the text).
package pbem
