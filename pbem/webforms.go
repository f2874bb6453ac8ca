package pbem

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// The order form of a player's page: the player checks orders and sends
// them from the page (see Service.pageOrders). The secret in the address
// says who posts; a per-page token, which a page of another site cannot
// know, and the Origin of the post keep another site's page from posting
// in the player's name.

// pageForm is the editable order form of a player's page.
type pageForm struct {
	Token, Nonce string
	// Draft is the text in the form: the order form, or what was posted.
	Draft string
}

// pagePost is what became of orders posted from a page.
type pagePost struct {
	// Answer is the judge's answer; Refused says instead why the orders
	// were not read at all.
	Answer  *pageAnswer
	Refused string
	Check   bool // a CHECK: nothing stored, nothing mailed
}

// fillForm gives a player's page its editable form, when the pages can
// take orders and the side has a form to fill.
func (w *webPages) fillForm(p *playerPage, draft string) {
	if w.desk == nil || p.Game.Ended || p.Form == "" && p.Standing == "" {
		return
	}
	if draft == "" {
		draft = p.Form + p.Standing
	}
	p.Edit = &pageForm{
		Token: pageToken(w.desk.opts.ServerKey, p.Secret, p.Game.ID, p.Game.Round),
		Nonce: newPageNonce(), Draft: draft,
	}
}

// postOrders takes orders posted from a player's page: Check answers on
// the page; Submit stores them as a mail would, and mails the answer too.
func (w *webPages) postOrders(rw http.ResponseWriter, r *http.Request) {
	if w.desk == nil {
		w.notFound(rw)
		return
	}
	if !sameOrigin(r, w.desk.opts.BaseURL) {
		w.log.Warn("orders posted from another site refused", "origin", r.Header.Get("Origin"))
		http.Error(rw, "Orders are taken only from the player's own page (this post came from another site, or said from none).", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(rw, r.Body, maxPageOrders+4<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(rw, "The form was too large or unreadable: orders are plain text of at most 64 KiB. Nothing was done.", http.StatusRequestEntityTooLarge)
		return
	}
	secret := strings.ToLower(r.PathValue("secret"))
	p, err := w.readPlayer(r)
	if err != nil {
		w.fail(rw, r, err)
		return
	}
	draft := r.PostFormValue("orders")
	round := p.Game.Round
	w.fillForm(p, draft)
	post := &pagePost{Check: r.PostFormValue("action") != "submit"}
	p.Post = post
	switch {
	case p.Edit == nil:
		// The game ended, or the side has no orders to give now.
		post.Refused = "Nothing was done: this side has no orders to give now."
		w.renderStatus(rw, http.StatusConflict, p)
		return
	case !validPageToken(w.desk.opts.ServerKey, r.PostFormValue("token"), secret, p.Game.ID, round):
		post.Refused = "Nothing was done: this form was not the current one of your page (the round has moved on since it was shown, or it did not come from your page). Check your orders against this round's form."
		w.renderStatus(rw, http.StatusConflict, p)
		return
	}
	answer, err := w.desk.pageOrders(secret, r.PostFormValue("nonce"), draft, post.Check)
	switch {
	case errors.Is(err, errPageRefused):
		post.Refused = "Nothing was done: " + strings.TrimPrefix(err.Error(), errPageRefused.Error()+": ") + "."
		w.render(rw, r, "player", nil, p)
		return
	case err != nil:
		w.fail(rw, r, err)
		return
	}
	// The page again, with what the judge now holds; the orders sent stay
	// in the form while their round is open.
	if p, err = w.readPlayer(r); err != nil {
		w.fail(rw, r, err)
		return
	}
	if p.Game.Round != round {
		draft = ""
	}
	w.fillForm(p, draft)
	post.Answer = answer
	p.Post = post
	w.render(rw, r, "player", nil, p)
}

// readPlayer reads the page of a request's {secret}.
func (w *webPages) readPlayer(r *http.Request) (*playerPage, error) {
	var p *playerPage
	err := w.view(func(t storeTx) error {
		g, side, err := w.player(t, r)
		if err != nil {
			return err
		}
		if p, err = readPlayerPage(w.systems, t, g, side); err != nil {
			return err
		}
		p.Secret = strings.ToLower(r.PathValue("secret"))
		return nil
	})
	return p, err
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
func (w *webPages) renderStatus(rw http.ResponseWriter, status int, p *playerPage) {
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	rw.WriteHeader(status)
	if err := w.pages.ExecuteTemplate(rw, "player.html.tmpl", p); err != nil {
		w.log.Error("web page", "route", "player page", "err", err)
	}
}
