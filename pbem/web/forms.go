package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The order form of a player's page: the player checks orders and sends
// them from the page (Source.Orders). The secret in the address says who
// posts; a per-page token, which a page of another site cannot know, and
// the Origin of the post keep another site's page from posting in the
// player's name.

// Form is the editable order form of a player's page.
type Form struct {
	Token, Nonce string
	// Draft is the text in the form: the order form, or what was posted.
	Draft string
}

// Post is what became of orders posted from a page.
type Post struct {
	// Answer is the judge's answer; Refused says instead why the orders
	// were not read at all.
	Answer  *Answer
	Refused string
	Check   bool // a CHECK: nothing stored, nothing mailed
}

// formToken is the per-page token of a player's order form, which a form
// posted from another site cannot know: it binds the secret, the game and
// the round the form was written for.
func formToken(key []byte, secret, game string, round int) string {
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "fieldpost page orders\x00%s\x00%s\x00%d", strings.ToLower(secret), game, round)
	return hex.EncodeToString(mac.Sum(nil))
}

// validFormToken compares a posted token with the one expected in
// constant time.
func validFormToken(key []byte, token, secret, game string, round int) bool {
	want := formToken(key, secret, game, round)
	return hmac.Equal([]byte(token), []byte(want))
}

// newNonce names one showing of a page's form: the same form posted
// twice (a double tap, a reload) is the same mail, done once.
func newNonce() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// fillForm gives a player's page its editable form, when the side has a
// form to fill.
func (p *Pages) fillForm(pl *Player, draft string) {
	if pl.Game.Ended || pl.Form == "" && pl.Standing == "" {
		return
	}
	if draft == "" {
		draft = pl.Form + pl.Standing
	}
	pl.Edit = &Form{
		Token: formToken(p.cfg.FormKey, pl.Secret, pl.Game.ID, pl.Game.Round),
		Nonce: newNonce(), Draft: draft,
	}
}

// postOrders takes orders posted from a player's page: Check answers on
// the page; Submit stores them as a mail would, and mails the answer too.
func (p *Pages) postOrders(rw http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r, p.cfg.BaseURL) {
		p.cfg.Log.Warn("orders posted from another site refused", "origin", r.Header.Get("Origin"))
		http.Error(rw, "Orders are taken only from the player's own page (this post came from another site, or said from none).", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(rw, r.Body, int64(p.cfg.MaxOrders+4<<10))
	if err := r.ParseForm(); err != nil {
		http.Error(rw, fmt.Sprintf("The form was too large or unreadable: orders are plain text of at most %d KiB. Nothing was done.", p.cfg.MaxOrders>>10),
			http.StatusRequestEntityTooLarge)
		return
	}
	secret := secretOf(r)
	pl, err := p.readPlayer(secret)
	if err != nil {
		p.fail(rw, r, err)
		return
	}
	draft := r.PostFormValue("orders")
	round := pl.Game.Round
	p.fillForm(pl, draft)
	post := &Post{Check: r.PostFormValue("action") != "submit"}
	pl.Post = post
	switch {
	case pl.Edit == nil:
		// The game ended, or the side has no orders to give now.
		post.Refused = "Nothing was done: this side has no orders to give now."
		p.renderStatus(rw, http.StatusConflict, pl)
		return
	case !validFormToken(p.cfg.FormKey, r.PostFormValue("token"), secret, pl.Game.ID, round):
		post.Refused = "Nothing was done: this form was not the current one of your page (the round has moved on since it was shown, or it did not come from your page). Check your orders against this round's form."
		p.renderStatus(rw, http.StatusConflict, pl)
		return
	}
	answer, err := p.src.Orders(secret, r.PostFormValue("nonce"), draft, post.Check)
	switch {
	case errors.Is(err, ErrNotRead):
		post.Refused = "Nothing was done: " + strings.TrimPrefix(err.Error(), ErrNotRead.Error()+": ") + "."
		p.render(rw, r, "player", nil, pl)
		return
	case err != nil:
		p.fail(rw, r, err)
		return
	}
	// The page again, with what the judge now holds; the orders sent stay
	// in the form while their round is open.
	if pl, err = p.readPlayer(secret); err != nil {
		p.fail(rw, r, err)
		return
	}
	if pl.Game.Round != round {
		draft = ""
	}
	p.fillForm(pl, draft)
	post.Answer = answer
	pl.Post = post
	p.render(rw, r, "player", nil, pl)
}

// sameOrigin reports whether a post came from the pages themselves: its
// Origin is the host it was sent to, or the pages' public address (behind
// a proxy). The pages send no Referer, so a browser names the origin of
// their posts "null": then the browser's Sec-Fetch-Site must say
// same-origin. A post that names neither is refused.
func sameOrigin(r *http.Request, baseURL string) bool {
	origin := r.Header.Get("Origin")
	if origin == "null" || origin == "" {
		return origin == "null" && r.Header.Get("Sec-Fetch-Site") == "same-origin"
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	base, err := url.Parse(baseURL)
	return baseURL != "" && err == nil && strings.EqualFold(u.Scheme, base.Scheme) && strings.EqualFold(u.Host, base.Host)
}

// renderStatus shows a player's page with a status other than 200.
func (p *Pages) renderStatus(rw http.ResponseWriter, status int, pl *Player) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.WriteHeader(status)
	if err := p.pages.ExecuteTemplate(rw, "player.html.tmpl", pl); err != nil {
		p.cfg.Log.Error("web page", "route", "player page", "err", err)
	}
}
