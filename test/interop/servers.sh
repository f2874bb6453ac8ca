#!/usr/bin/env bash
# Real mail servers for Fieldpost's interoperability test, from Debian's
# packages, as a club would run them, in one of two stacks:
#
#   postfix (the default): Dovecot (IMAP, LMTP delivery, and the SASL
#     authentication for Postfix) and Postfix (SMTP submission with TLS and
#     AUTH, delivering to Dovecot by LMTP); the judge reads its mail from
#     Dovecot over IMAP.
#   opensmtpd: Dovecot (IMAP and LMTP) and OpenSMTPD, relaying the mail of
#     the club's domain from loopback without TLS or AUTH (Debian 12's
#     OpenSMTPD 6.8.0p2 fails every TLS handshake with OpenSSL 3, OpenSMTPD
#     issues #1171, #1239, and offers AUTH only over TLS), delivering the
#     judge's address by LMTP straight to the judge (which listens on the
#     address servers.env names JUDGE_LMTP_ADDR) and every other to Dovecot.
#
# They listen on 127.0.0.1 only, with throwaway configuration, queue,
# mailboxes and a self-signed certificate in one folder. Nothing
# system-wide is started or changed, but for what OpenSMTPD cannot be told
# otherwise: its users opensmtpd and opensmtpq, its queue /var/spool/smtpd
# and its control socket /var/run/smtpd.sock. Debian's opensmtpd package
# conflicts with postfix: install unpacks it into $OPENSMTPD_ROOT instead.
#
#   test/interop/servers.sh install     (as root, once: both stacks)
#   FIELDPOST_INTEROP_MTA=opensmtpd test/interop/servers.sh start
#   go test -tags interop -run Interop ./cmd/fieldpost/
#   test/interop/servers.sh stop
#
# Commands:
#   install          apt-get install the packages, starting no service and
#                    replacing no other mail server; unpack OpenSMTPD
#   start            make a fresh folder, start both servers, write servers.env
#   stop             stop both servers (the folder and its logs stay)
#   start-imap | stop-imap   Dovecot alone (the mail in it stays)
#   start-mta  | stop-mta    Postfix or OpenSMTPD alone (its queue stays);
#                    start-mta delivers again after hold-delivery
#   hold-delivery    the MTA keeps accepting mail but queues it instead of
#                    delivering it, until the next start-mta
#   flush            the MTA tries every deferred mail again now
#   queue            list the mails in the MTA's queue (nothing when empty)
#   wait-delivered   until the MTA's queue is empty: every mail it took is
#                    delivered (2 min)
#
# The stack is $FIELDPOST_INTEROP_MTA at start (postfix or opensmtpd); the
# other commands read it from the folder. The folder is
# $FIELDPOST_INTEROP_DIR (default /tmp/fieldpost-interop); the ports are
# $FIELDPOST_INTEROP_PORT_BASE (default 24000) plus 993 (IMAPS), 143 (IMAP
# with STARTTLS), 465 (submission with implicit TLS) and 587 (submission
# with STARTTLS) for Postfix, 25 (SMTP relay) for OpenSMTPD, 24 (Dovecot's
# LMTP) and 2424 (the judge's LMTP; with Postfix, lmtpjudge@'s). servers.env in the
# folder tells a client the stack, the addresses, the accounts' passwords
# and the certificate. The accounts: judge, gm, us and german @club.test;
# mail to judge+ANYTHING@club.test is the judge's.
set -euo pipefail

DIR="${FIELDPOST_INTEROP_DIR:-/tmp/fieldpost-interop}"
BASE="${FIELDPOST_INTEROP_PORT_BASE:-24000}"
IMAPS_PORT=$((BASE + 993))
IMAP_PORT=$((BASE + 143))
SUBMISSIONS_PORT=$((BASE + 465))
SUBMISSION_PORT=$((BASE + 587))
LMTP_PORT=$((BASE + 24))
RELAY_PORT=$((BASE + 25))
JUDGE_LMTP_PORT=$((BASE + 2424))
# The stack: given at start, kept in the folder for the other commands.
MTA="${FIELDPOST_INTEROP_MTA:-}"
if [ -z "$MTA" ]; then
	MTA=$(cat "$DIR/mta" 2>/dev/null || echo postfix)
fi
case "$MTA" in
postfix) PORTS="$IMAPS_PORT $IMAP_PORT $SUBMISSIONS_PORT $SUBMISSION_PORT $LMTP_PORT" ;;
opensmtpd) PORTS="$IMAPS_PORT $IMAP_PORT $RELAY_PORT $LMTP_PORT" ;;
*)
	echo "servers.sh: FIELDPOST_INTEROP_MTA must be postfix or opensmtpd, not $MTA" >&2
	exit 2
	;;
esac
DOMAIN=club.test # also in smtpd.conf's regex below
USERS="judge gm us german"
# With Postfix, a second judge's address, delivered by LMTP to that judge
# (at JUDGE_LMTP_ADDR) rather than to Dovecot: the latency test's.
LMTP_JUDGE=lmtpjudge
# Mail is stored as nobody: a user that exists on every Debian machine and
# owns nothing else worth protecting.
MAIL_USER=nobody
MAIL_GROUP=nogroup
PF="$DIR/postfix"
PF_ETC="$PF/etc" # apart from the queue, which Postfix checks for root's files
OS="$DIR/opensmtpd"
# Where install unpacks Debian's opensmtpd package.
OPENSMTPD_ROOT="${OPENSMTPD_ROOT:-/opt/fieldpost-interop/opensmtpd}"
SMTPD="$OPENSMTPD_ROOT/usr/sbin/smtpd"
SMTPCTL="$OPENSMTPD_ROOT/usr/sbin/smtpctl"

die() { echo "servers.sh: $*" >&2; exit 1; }

PACKAGES="dovecot-imapd dovecot-lmtpd postfix"
# What Debian's opensmtpd package depends on, but for what it needs only
# as a system service (adduser, debconf, init scripts).
OPENSMTPD_LIBS="libc6 libcrypt1 libdb5.3 libevent-2.1-7 libpam0g libssl3 zlib1g"

# install installs the packages without letting them start their system
# services (a policy-rc.d that denies, unless the machine has its own) and
# without removing anything: apt-get would replace another mail server
# (exim4, opensmtpd) with Postfix, and that is not the test's to do.
install() {
	[ "$(id -u)" = 0 ] || die "run as root"
	local policy=/usr/sbin/policy-rc.d own_policy=
	if [ ! -e "$policy" ]; then
		printf '#!/bin/sh\n# test/interop/servers.sh install: start no service\nexit 101\n' >"$policy"
		chmod 755 "$policy"
		own_policy=yes
	fi
	# Postfix asks what kind of mail server this is: none; servers.sh
	# brings its own configuration.
	echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
	local status=0
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-remove $PACKAGES $OPENSMTPD_LIBS >/dev/null || status=$?
	[ -n "$own_policy" ] && rm -f "$policy"
	[ "$status" = 0 ] || die "apt-get install $PACKAGES failed (with --no-remove: is another mail server installed?)"
	install_opensmtpd
}

# install_opensmtpd unpacks Debian's opensmtpd beside Postfix, which its
# package would replace, and makes the users its processes run as.
install_opensmtpd() {
	local tmp u
	tmp=$(mktemp -d)
	chown _apt "$tmp" 2>/dev/null || true # apt downloads as _apt
	(cd "$tmp" && apt-get download -qq opensmtpd) || die "apt-get download opensmtpd failed"
	rm -rf "$OPENSMTPD_ROOT"
	mkdir -p "$OPENSMTPD_ROOT"
	dpkg-deb -x "$tmp"/opensmtpd_*.deb "$OPENSMTPD_ROOT"
	rm -rf "$tmp"
	for u in opensmtpd opensmtpq; do
		getent group "$u" >/dev/null || addgroup --system --quiet "$u"
		id "$u" >/dev/null 2>&1 || adduser --system --quiet --home /var/lib/opensmtpd/empty --no-create-home \
			--disabled-password --ingroup "$u" "$u"
	done
	# The chroot of its unprivileged processes.
	mkdir -p /var/lib/opensmtpd/empty
	# As the package's postinst leaves it: smtpctl refuses to run otherwise.
	chgrp opensmtpq "$SMTPCTL"
	chmod 2555 "$SMTPCTL"
}

need_tools() {
	[ "$(id -u)" = 0 ] || die "run as root (Dovecot and the MTA switch users)"
	for t in dovecot postfix postconf openssl; do
		command -v "$t" >/dev/null || die "$t is missing: $0 install"
	done
	[ -x /usr/lib/dovecot/lmtp ] || die "Dovecot's LMTP server is missing: $0 install"
	if [ "$MTA" = opensmtpd ]; then
		[ -x "$SMTPD" ] && id opensmtpq >/dev/null 2>&1 || die "OpenSMTPD is not unpacked in $OPENSMTPD_ROOT: $0 install"
		[ -S /var/run/smtpd.sock ] && "$SMTPCTL" show status >/dev/null 2>&1 &&
			die "another OpenSMTPD runs (/var/run/smtpd.sock): servers.sh stop"
	fi
	return 0
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_ports PORT...: until something listens on each (10 s).
wait_ports() {
	local p
	for p in "$@"; do
		for _ in $(seq 100); do
			listening "$p" && continue 2
			sleep 0.1
		done
		return 1
	done
}

# alive PID: the process runs (a zombie, not yet reaped by init, does not).
alive() {
	local stat
	stat=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	[[ $stat != Z* ]]
}

# stop_pid FILE NAME: stops the daemon whose pid FILE holds, and waits (10 s).
stop_pid() {
	[ -f "$1" ] || return 0
	local pid
	pid=$(tr -d ' \n' <"$1")
	if alive "$pid"; then
		kill "$pid"
		for _ in $(seq 100); do
			alive "$pid" || break
			sleep 0.1
		done
		alive "$pid" && die "$2 (pid $pid) did not stop"
	fi
	rm -f "$1"
}

make_folder() {
	local p u pw
	for p in $PORTS; do
		listening "$p" && die "port $p on 127.0.0.1 is taken: servers already running? (servers.sh stop, or set FIELDPOST_INTEROP_PORT_BASE)"
	done
	# Dovecot's and Postfix's processes run as other users: every folder
	# above the test folder must let them through.
	local up=$DIR
	while up=$(dirname "$up"); [ "$up" != / ]; do
		[ -e "$up" ] || continue
		[ $((0$(stat -c %a "$up") & 1)) = 1 ] || die "$up is closed to other users (chmod o+x): Dovecot and Postfix could not reach $DIR"
	done
	rm -rf "$DIR"
	mkdir -p "$DIR"/{tls,log,dovecot/run,dovecot/state,mail} "$PF"/{etc,queue,data} "$OS"
	echo "$MTA" >"$DIR/mta"
	# OpenSMTPD's queue is not in the folder: a fresh one for a fresh start.
	[ "$MTA" = opensmtpd ] && rm -rf /var/spool/smtpd
	# Dovecot's and Postfix's unprivileged processes must reach their files.
	chmod 755 "$DIR" "$DIR/dovecot"
	chown "$MAIL_USER:$MAIL_GROUP" "$DIR/mail"
	chown postfix:postfix "$PF/data"

	openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj "/CN=localhost" \
		-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
		-keyout "$DIR/tls/key.pem" -out "$DIR/tls/cert.pem" 2>/dev/null
	chmod 600 "$DIR/tls/key.pem"

	: >"$DIR/dovecot/users"
	: >"$PF_ETC/mailboxes"
	echo "$LMTP_JUDGE@$DOMAIN lmtp" >>"$PF_ETC/mailboxes"
	echo "$LMTP_JUDGE@$DOMAIN lmtp:inet:127.0.0.1:$JUDGE_LMTP_PORT" >"$PF_ETC/transport"
	{
		echo "# Written by test/interop/servers.sh start: the test servers and their accounts."
		echo "MTA=$MTA"
		echo "DOMAIN=$DOMAIN"
		echo "IMAPS_ADDR=127.0.0.1:$IMAPS_PORT"
		echo "IMAP_STARTTLS_ADDR=127.0.0.1:$IMAP_PORT"
		echo "CA_FILE=$DIR/tls/cert.pem"
		if [ "$MTA" = opensmtpd ]; then
			echo "RELAY_ADDR=127.0.0.1:$RELAY_PORT"
			echo "JUDGE_LMTP_ADDR=127.0.0.1:$JUDGE_LMTP_PORT"
		else
			echo "LMTP_JUDGE_ADDRESS=$LMTP_JUDGE@$DOMAIN"
			echo "JUDGE_LMTP_ADDR=127.0.0.1:$JUDGE_LMTP_PORT"
			echo "SUBMISSIONS_ADDR=127.0.0.1:$SUBMISSIONS_PORT"
			echo "SUBMISSION_STARTTLS_ADDR=127.0.0.1:$SUBMISSION_PORT"
		fi
	} >"$DIR/servers.env"
	for u in $USERS; do
		pw=$(openssl rand -hex 12)
		echo "$u:{PLAIN}$pw" >>"$DIR/dovecot/users"
		echo "$u@$DOMAIN $u" >>"$PF_ETC/mailboxes"
		echo "PASSWORD_$(echo "$u" | tr a-z A-Z)=$pw" >>"$DIR/servers.env"
	done
	# Dovecot's auth process runs as its internal user.
	chgrp dovecot "$DIR/dovecot/users"
	chmod 640 "$DIR/dovecot/users" "$DIR/servers.env"

	cat >"$DIR/dovecot/dovecot.conf" <<EOF
# Written by test/interop/servers.sh: throwaway, loopback only.
instance_name = fieldpost-interop
base_dir = $DIR/dovecot/run
state_dir = $DIR/dovecot/state
protocols = imap lmtp
listen = 127.0.0.1
log_path = $DIR/log/dovecot.log
ssl = required
ssl_cert = <$DIR/tls/cert.pem
ssl_key = <$DIR/tls/key.pem
auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = username_format=%Ln $DIR/dovecot/users
}
userdb {
  driver = static
  args = uid=$MAIL_USER gid=$MAIL_GROUP home=$DIR/mail/%Ln
}
mail_location = maildir:~/Maildir
first_valid_uid = $(id -u $MAIL_USER)
recipient_delimiter = +
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
# Postfix asks Dovecot whether a submission's AUTH is good.
service auth {
  unix_listener auth-postfix {
    mode = 0660
    user = postfix
    group = postfix
  }
}
protocol lmtp {
  # judge+TOKEN@club.test is user judge; the passdb has bare names.
  auth_username_format = %Ln
}
EOF

	cat >"$PF_ETC/main.cf" <<EOF
# Written by test/interop/servers.sh: throwaway, loopback only.
compatibility_level = 3.6
queue_directory = $PF/queue
data_directory = $PF/data
maillog_file_prefixes = $DIR/log
maillog_file = $DIR/log/postfix.log
myhostname = mail.$DOMAIN
mydomain = $DOMAIN
myorigin = \$mydomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
# Every account is a virtual mailbox in Dovecot, delivered by LMTP;
# judge+TOKEN@ is judge@.
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_maps = texthash:$PF_ETC/mailboxes
virtual_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
# But for a judge that takes its mail by LMTP itself (the latency test's).
transport_maps = texthash:$PF_ETC/transport
recipient_delimiter = +
# Submission only: TLS, then AUTH against Dovecot, for every mail.
smtpd_tls_cert_file = $DIR/tls/cert.pem
smtpd_tls_key_file = $DIR/tls/key.pem
smtpd_tls_security_level = encrypt
smtpd_tls_auth_only = yes
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = $DIR/dovecot/run/auth-postfix
smtpd_client_restrictions = permit_sasl_authenticated, reject
smtpd_relay_restrictions = permit_sasl_authenticated, reject
# A deferred mail (Dovecot down) is tried again within seconds, not the
# default minutes, so that the test is quick.
queue_run_delay = 2s
minimal_backoff_time = 2s
maximal_backoff_time = 10s
EOF

	# OpenSMTPD: the club's domain from loopback, the judge's address
	# straight to the judge, every other to Dovecot, both by LMTP.
	cat >"$OS/smtpd.conf" <<EOF
# Written by test/interop/servers.sh: throwaway, loopback only.
listen on 127.0.0.1 port $RELAY_PORT hostname mail.$DOMAIN
action "judge" relay host lmtp://127.0.0.1:$JUDGE_LMTP_PORT
action "mailboxes" relay host lmtp://127.0.0.1:$LMTP_PORT
match from local for rcpt-to regex "^judge(\\+.*)?@club\\.test\$" action "judge"
match from local for domain "$DOMAIN" action "mailboxes"
EOF

	# Postfix's services, as Debian's master.cf has them but without chroot.
	cat >"$PF_ETC/master.cf" <<EOF
# Written by test/interop/servers.sh.
127.0.0.1:$SUBMISSION_PORT inet n - n - - smtpd
127.0.0.1:$SUBMISSIONS_PORT inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
pickup    unix  n - n 60    1 pickup
cleanup   unix  n - n -     0 cleanup
qmgr      unix  n - n 300   1 qmgr
tlsmgr    unix  - - n 1000? 1 tlsmgr
rewrite   unix  - - n -     - trivial-rewrite
bounce    unix  - - n -     0 bounce
defer     unix  - - n -     0 bounce
trace     unix  - - n -     0 bounce
verify    unix  - - n -     1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -     - proxymap
showq     unix  n - n -     - showq
error     unix  - - n -     - error
retry     unix  - - n -     - error
discard   unix  - - n -     - discard
lmtp      unix  - - n -     - lmtp
anvil     unix  - - n -     1 anvil
scache    unix  - - n -     1 scache
postlog   unix-dgram n - n - 1 postlogd
EOF
}

# The daemons get no standard input or output of ours: a caller reading
# this script's output to its end would wait for them to exit.
start_imap() {
	dovecot -c "$DIR/dovecot/dovecot.conf" </dev/null >>"$DIR/log/dovecot.log" 2>&1
	wait_ports "$IMAPS_PORT" "$IMAP_PORT" "$LMTP_PORT" || die "Dovecot did not start: see $DIR/log/dovecot.log"
}

stop_imap() { stop_pid "$DIR/dovecot/run/master.pid" Dovecot; }

start_mta() {
	if [ "$MTA" = opensmtpd ]; then
		# In the foreground (-d), logging to its file, in a session of its
		# own; a queue left by the last start is delivered.
		setsid "$SMTPD" -d -f "$OS/smtpd.conf" </dev/null >>"$DIR/log/opensmtpd.log" 2>&1 &
		echo $! >"$OS/smtpd.pid"
		wait_ports "$RELAY_PORT" || die "OpenSMTPD did not start: see $DIR/log/opensmtpd.log"
		return
	fi
	postconf -c "$PF_ETC" -X defer_transports
	postfix -c "$PF_ETC" start </dev/null >>"$DIR/log/postfix.log" 2>&1 || die "Postfix did not start: see $DIR/log/postfix.log"
	wait_ports "$SUBMISSION_PORT" "$SUBMISSIONS_PORT" || die "Postfix did not start: see $DIR/log/postfix.log"
}

stop_mta() {
	if [ "$MTA" = opensmtpd ]; then
		stop_pid "$OS/smtpd.pid" OpenSMTPD
		return
	fi
	stop_pid "$PF/queue/pid/master.pid" Postfix
}

hold_delivery() {
	if [ "$MTA" = opensmtpd ]; then
		"$SMTPCTL" pause mta >/dev/null
		return
	fi
	postconf -c "$PF_ETC" -e defer_transports=lmtp
	postfix -c "$PF_ETC" reload </dev/null >>"$DIR/log/postfix.log" 2>&1
}

# flush has the MTA try every deferred mail now, rather than after its
# backoff.
flush() {
	if [ "$MTA" = opensmtpd ]; then
		"$SMTPCTL" schedule all >/dev/null
		return
	fi
	postqueue -c "$PF_ETC" -f
}

# queue lists the mails in the MTA's queue; nothing when it is empty.
queue() {
	if [ "$MTA" = opensmtpd ]; then
		"$SMTPCTL" show queue
		return
	fi
	postqueue -c "$PF_ETC" -j
}

wait_delivered() {
	local queue i
	for i in $(seq 600); do
		queue=$(queue) || die "the $MTA queue cannot be read: is it running?"
		[ -z "$queue" ] && return 0
		# OpenSMTPD's backoff after a failure is minutes long.
		if [ "$MTA" = opensmtpd ] && [ $((i % 10)) = 0 ]; then
			flush
		fi
		sleep 0.2
	done
	if [ "$MTA" = opensmtpd ]; then
		echo "$queue" >&2
		die "OpenSMTPD's queue did not empty within 2 minutes: see $DIR/log/opensmtpd.log"
	fi
	postqueue -c "$PF_ETC" -p >&2
	die "Postfix's queue did not empty within 2 minutes: see $DIR/log/postfix.log"
}

case "${1:-}" in
install) install ;;
start)
	need_tools
	make_folder
	# A server that started is stopped again when the other cannot start.
	trap 'stop_mta || true; stop_imap || true' EXIT
	start_imap
	start_mta
	trap - EXIT
	echo "Dovecot and $MTA on 127.0.0.1 ports $PORTS; $DIR/servers.env"
	;;
stop)
	stop_mta
	stop_imap
	;;
start-imap) start_imap ;;
stop-imap) stop_imap ;;
start-mta) start_mta ;;
stop-mta) stop_mta ;;
hold-delivery) hold_delivery ;;
flush) flush ;;
queue) queue ;;
wait-delivered) wait_delivered ;;
*)
	echo "usage: $0 install|start|stop|start-imap|stop-imap|start-mta|stop-mta|hold-delivery|flush|queue|wait-delivered" >&2
	exit 2
	;;
esac
