package policy

import (
	"image/color"
	"math"
	"testing"
)

// TestPalette: every colour a policy may be given is at least 3:1 against
// white (WCAG 2.1, "1.4.11 Non-text Contrast"), and every two colours of the
// palette, the registry and the charts' inks are at least 20 apart in
// CIELAB (ΔE*ab, CIE76), about where two lines on a chart stop being
// mistaken; no two policies share one. Worked by hand: white against black is (1 + 0.05)/(0 + 0.05) =
// 21; the grey 777777 (luminance 0.184) gives 1.05/0.234 = 4.48.
func TestPalette(t *testing.T) {
	if got := contrast(color.NRGBA{0, 0, 0, 0xFF}); math.Abs(got-21) > 1e-9 {
		t.Fatalf("contrast of black %v, want 21", got)
	}
	if got := contrast(color.NRGBA{0x77, 0x77, 0x77, 0xFF}); math.Abs(got-4.48) > 0.01 {
		t.Fatalf("contrast of 777777 %v, want 4.48", got)
	}
	for _, c := range palette {
		if r := contrast(c); r < 3 {
			t.Errorf("%v: contrast %.2f:1 against white, want at least 3:1", c, r)
		}
	}
	// The charts' own dark inks (charts/style.go: the score line, the end
	// of a log, a policy the registry does not know) must not pass for a
	// policy either.
	inks := []color.NRGBA{{0x00, 0x00, 0x00, 0xFF}, {0x33, 0x33, 0x33, 0xFF}, {0x55, 0x55, 0x55, 0xFF}}
	all := append([]color.NRGBA{}, palette...)
	seen := map[color.NRGBA]Name{}
	for _, n := range Names() {
		c := registry[n].Color
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share the colour %v", other, n, c)
		}
		seen[c] = n
		if !inPalette(c) {
			all = append(all, c)
		}
	}
	for i, a := range all {
		for _, b := range append(all[i+1:len(all):len(all)], inks...) {
			if d := deltaE(a, b); d < 20 {
				t.Errorf("%v and %v: ΔE %.1f, want at least 20", a, b, d)
			}
		}
	}
}

// TestPaletteColor: a policy registered without a colour is given one of
// the palette that no other policy has, the same one each time, and the
// policies that chose theirs keep them.
func TestPaletteColor(t *testing.T) {
	const n Name = "test-colourless"
	register(Kind{Name: n, New: newNone})
	t.Cleanup(func() { delete(registry, n) })
	c := registry[n].Color
	if !inPalette(c) {
		t.Fatalf("%s: colour %v, not of the palette", n, c)
	}
	for _, m := range Names() {
		if m != n && registry[m].Color == c {
			t.Errorf("%s has %s's colour %v", n, m, c)
		}
	}
	delete(registry, n)
	if again := paletteColor(n); again != c {
		t.Errorf("%s: colour %v, then %v", n, c, again)
	}
	if got, want := registry[Score].Color, (color.NRGBA{0xD5, 0x5E, 0x00, 0xFF}); got != want {
		t.Errorf("score's colour %v, want its vermillion %v", got, want)
	}
}

func inPalette(c color.NRGBA) bool {
	for _, p := range palette {
		if p == c {
			return true
		}
	}
	return false
}

// linear is an sRGB channel in linear light.
func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// contrast is c's contrast ratio against white (WCAG 2.1, relative luminance).
func contrast(c color.NRGBA) float64 {
	l := 0.2126*linear(c.R) + 0.7152*linear(c.G) + 0.0722*linear(c.B)
	return 1.05 / (l + 0.05)
}

// deltaE is the CIE76 distance of a and b in CIELAB (D65).
func deltaE(a, b color.NRGBA) float64 {
	la, lb := lab(a), lab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

func lab(c color.NRGBA) [3]float64 {
	r, g, b := linear(c.R), linear(c.G), linear(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}
