package engine

import (
	"strings"
	"testing"
)

type testOrders struct {
	Moves []string `json:"moves"`
}

func TestJSONOrdersReadBackAndKnowTheirFamily(t *testing.T) {
	stored, err := (&JSONOrders[*testOrders]{Orders: &testOrders{Moves: []string{"A 0303"}}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadJSONOrders[*testOrders]("us", stored)
	if err != nil || len(loaded.Orders.Moves) != 1 || loaded.Orders.Moves[0] != "A 0303" {
		t.Fatalf("read back %+v, %v from %s", loaded, err, stored)
	}
	if _, err := LoadJSONOrders[*testOrders]("us", []byte("{")); err == nil || !strings.Contains(err.Error(), "us's stored orders") {
		t.Errorf("bad stored orders: %v, want an error naming the side", err)
	}
	if o, err := OrdersOf[*testOrders]("Test", "us", loaded); err != nil || o != loaded.Orders {
		t.Errorf("OrdersOf its own family: %v, %v", o, err)
	}
	if _, err := OrdersOf[testOrders]("Test", "us", loaded); err == nil || !strings.Contains(err.Error(), "orders of us are not Test orders") {
		t.Errorf("OrdersOf another type: %v, want an error naming the side and the family", err)
	}
}

func TestSidesAreMatchedWithoutCase(t *testing.T) {
	sides := []Side{{Name: "US"}, {Name: "german"}}
	for name, want := range map[string]string{"us": "US", "US": "US", "German": "german", "soviet": "", "": ""} {
		if got := SideNamed(sides, name); got != want {
			t.Errorf("SideNamed(%q) = %q, want %q", name, got, want)
		}
	}
	if got := SideNames(sides); len(got) != 2 || got[0] != "US" || got[1] != "german" {
		t.Errorf("SideNames = %v", got)
	}
}
