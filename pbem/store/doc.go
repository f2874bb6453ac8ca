// Package store is the judge's database: one bbolt file, behind one API.
// Nothing else of the judge (pbem, cmd) imports bbolt or knows a bucket
// or the byte layout of a key. (The embedded club mail server, mail/club,
// keeps its mailboxes in a bbolt file of its own.)
//
// [Open] opens the file (waiting at most a timeout for its lock, read-only
// when asked), creates the buckets of a new one and refuses one of
// another layout version or with a damaged page ([DamagedError]);
// [DB.Check] and [CheckDatabase] read every page. Work is done in
// transactions, [DB.View] and [DB.Update], through the collections of
// [Tx]: games, positions, round records and orders by game and turn,
// player tokens, processed mail, the outbox, sent mail, rate limits,
// table talk, address changes, ratings, mails in hand and mails set aside.
//
// The store does not know pbem's types: a record is given as any value
// and stored as its JSON (positions and round records deflated, pack.go),
// and read back into the caller's value; an iterator yields each record
// as a [Value] to decode. So the package depends on nothing of ours, and
// pbem keeps its records' types, and their meaning, to itself (its
// storeTx decodes them). The layout (layout.go) is version "1": a
// database written by any earlier release opens and reads as it was.
package store
