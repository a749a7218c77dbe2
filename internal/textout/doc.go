// Package textout is how every output shows text: a log's text made safe
// for each format (Printable, MarkdownText, CSVText), counts in words,
// tables drawn by tablewriter, fitted to a terminal's width with prose
// wrapped at spaces (Fit), JSON as every output encodes it, and the sections
// of groups. It knows no episode nor policy: report and sweep write their
// outputs with it.
package textout
