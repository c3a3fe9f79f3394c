// jsonref - reference output for the jenc CLI tests, produced by Go's
// encoding/json.
//
// It reads a stream of JSON values from stdin and writes each one,
// followed by "\n", as json.Compact (-c), json.Indent with prefix "" and
// N spaces (-i N, default 2) or one tab (-t), then json.HTMLEscape if -H
// is given.  Values are decoded into json.RawMessage, which keeps their
// bytes, so numbers and string escapes are passed through unchanged.
//
// Usage: jsonref [-c | -i N | -t] [-H] < input
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	compact := flag.Bool("c", false, "compact output (json.Compact)")
	indent := flag.Int("i", 2, "indent with N spaces per level (json.Indent)")
	tab := flag.Bool("t", false, "indent with one tab per level")
	html := flag.Bool("H", false, "apply json.HTMLEscape to the output")
	flag.Parse()
	if flag.NArg() != 0 || *indent < 1 || *indent > 16 {
		fmt.Fprintln(os.Stderr, "usage: jsonref [-c | -i N | -t] [-H] < input")
		os.Exit(2)
	}
	ind := strings.Repeat(" ", *indent)
	if *tab {
		ind = "\t"
	}

	dec := json.NewDecoder(bufio.NewReaderSize(os.Stdin, 1<<16))
	dec.UseNumber()
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	var buf, esc bytes.Buffer
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(os.Stderr, "jsonref: input offset %d: %v\n",
				dec.InputOffset(), err)
			os.Exit(1)
		}
		buf.Reset()
		if *compact {
			err = json.Compact(&buf, raw)
		} else {
			err = json.Indent(&buf, raw, "", ind)
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(os.Stderr, "jsonref: %v\n", err)
			os.Exit(1)
		}
		b := buf.Bytes()
		if *html {
			esc.Reset()
			json.HTMLEscape(&esc, b)
			b = esc.Bytes()
		}
		out.Write(b)
		if err := out.WriteByte('\n'); err != nil {
			fmt.Fprintf(os.Stderr, "jsonref: write error: %v\n", err)
			os.Exit(3)
		}
	}
}
