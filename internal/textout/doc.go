// Package textout is how every output shows text: a log's text made safe
// for each format (Printable, MarkdownText, CSVText), counts in words, and
// tables drawn by tablewriter, fitted to a terminal's width with prose
// wrapped at spaces (Fit). It knows no episode nor policy: report and sweep
// write their outputs with it.
package textout
