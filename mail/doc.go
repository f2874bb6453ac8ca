// Package mail is Fieldpost's mail transport and MIME layer.
//
// It turns mailbox messages into parsed inbound mails ([Parse], [Intake]),
// recognises machine-generated mail that must never be answered
// ([DetectAutomatic]), and composes and sends outbound mails ([Compose],
// [Sender]). It knows nothing about games: the pbem package decides what an
// inbound mail means and what to answer.
package mail
