package policy

import (
	"hash/fnv"
	"image/color"
)

// palette gives a colour to a policy registered without one: Okabe and
// Ito's eight are taken by the policies that chose theirs, so these are
// further qualitative colours (Paul Tol's muted and dark schemes, Tableau's,
// a few darkened), each at least 3:1 against white, as a line on a chart
// needs (WCAG 2.1, "1.4.11 Non-text Contrast"), and at least 20 apart in
// CIELAB (ΔE*ab) from one another, from every hand-picked colour and from
// the charts' black and greys (TestPalette).
var palette = []color.NRGBA{
	{0x33, 0x22, 0x88, 0xFF}, // indigo
	{0x11, 0x77, 0x33, 0xFF}, // green
	{0x88, 0x22, 0x55, 0xFF}, // wine
	{0xAA, 0x44, 0x99, 0xFF}, // purple
	{0xCC, 0x66, 0x77, 0xFF}, // rose
	{0xE1, 0x57, 0x59, 0xFF}, // red
	{0x9C, 0x75, 0x5F, 0xFF}, // brown
	{0x2C, 0xA0, 0x2C, 0xFF}, // leaf green
	{0xD6, 0x27, 0x28, 0xFF}, // crimson
	{0x94, 0x67, 0xBD, 0xFF}, // lilac
	{0x66, 0x33, 0x33, 0xFF}, // dark brown
	{0x00, 0x44, 0x88, 0xFF}, // navy
	{0x66, 0x66, 0x33, 0xFF}, // dark olive
	{0xEE, 0x33, 0x77, 0xFF}, // magenta
	// Found within the same bounds (3.2:1 on white, 24 apart) for the
	// repetition rules and presets.
	{0x00, 0x77, 0x88, 0xFF}, // teal
	{0x99, 0x44, 0x11, 0xFF}, // rust
	{0x66, 0x44, 0x66, 0xFF}, // plum
	{0x44, 0x88, 0xEE, 0xFF}, // cornflower
	{0xBB, 0x11, 0xBB, 0xFF}, // fuchsia
}

// paletteColor is the colour of a policy registered without one: the
// palette's colour its name hashes to (FNV-1a), so that it does not depend
// on which other policies exist, else the next one no policy has taken.
func paletteColor(n Name) color.NRGBA {
	h := fnv.New32a()
	h.Write([]byte(n))
	start := int(h.Sum32() % uint32(len(palette)))
	for i := range palette {
		if c := palette[(start+i)%len(palette)]; !colorTaken(c) {
			return c
		}
	}
	panic("policy " + string(n) + ": every colour of the palette is taken; add to it")
}

// colorTaken reports whether a registered policy has colour c.
func colorTaken(c color.NRGBA) bool {
	for _, k := range registry {
		if k.Color == c {
			return true
		}
	}
	return false
}
