package programs

import (
	"fmt"
	"io"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// Hexdump is busybox hexdump (and hd, which is hexdump -C) over files or
// stdin: -C the canonical hex+ASCII display, otherwise two-byte words in
// hex; a line equal to the one before is shown once as "*" unless -v.
// Row E (the e2e images' tools: configmap_volume.go reads a ConfigMap's
// binaryData with `hexdump -C`; kubelet versions: all).
func Hexdump(p *process.Proc, argv []string) int {
	canonical := process.ProgramName(argv[0], p.Win) == "hd"
	verbose := false
	var files []string
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, f := range a[1:] {
				switch f {
				case 'C':
					canonical = true
				case 'v':
					verbose = true
				default:
					p.Eprintln(fmt.Sprintf("hexdump: invalid option -- '%c'", f))
					p.Eprintln("BusyBox v1.37.0 multi-call binary.")
					p.Eprintln("")
					p.Eprintln("Usage: hexdump [-bcdoxCv] [-e FMT] [-f FMT_FILE] [-n LEN] [-s OFS] [FILE]...")
					return 1
				}
			}
			continue
		}
		files = append(files, a)
	}
	var data []byte
	code := 0
	if len(files) == 0 {
		data = p.ReadStdin()
	}
	for _, f := range files {
		b, err := p.ReadFile(f)
		if err != nil {
			p.Eprintln(fmt.Sprintf("hexdump: %s: %s", f, process.PosixFileError(err, false)))
			code = 1
			continue
		}
		data = append(data, b...)
	}
	if !hexdumpTo(p.Stdout, p.Step, data, canonical, verbose) {
		return p.Killed()
	}
	return code
}

// hexdumpText formats data as hexdump does, 16 bytes a line.
func hexdumpText(data []byte, canonical, verbose bool) string {
	var b strings.Builder
	hexdumpTo(&b, func() error { return nil }, data, canonical, verbose)
	return b.String()
}

// hexdumpTo writes hexdumpText to w as it goes, 64 KiB at a time with a
// step between (issue 18: the output of a large input is not held whole);
// false when step stopped it.
func hexdumpTo(w io.Writer, step func() error, data []byte, canonical, verbose bool) bool {
	if len(data) == 0 {
		return true
	}
	var b strings.Builder
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += 16 {
		line := data[off:min(off+16, len(data))]
		if !verbose && prev != nil && len(line) == 16 && string(line) == string(prev) {
			if !starred {
				b.WriteString("*\n")
				starred = true
			}
			continue
		}
		prev, starred = line, false
		if b.Len() >= 64<<10 {
			io.WriteString(w, b.String())
			b.Reset()
			if step() != nil {
				return false
			}
		}
		if !canonical {
			fmt.Fprintf(&b, "%07x", off)
			for i := 0; i < 16; i += 2 {
				switch {
				case i+1 < len(line):
					fmt.Fprintf(&b, " %02x%02x", line[i+1], line[i])
				case i < len(line):
					fmt.Fprintf(&b, " 00%02x", line[i])
				default:
					b.WriteString("     ")
				}
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "%08x  ", off)
		for i := 0; i < 16; i++ {
			if i < len(line) {
				fmt.Fprintf(&b, "%02x ", line[i])
			} else {
				b.WriteString("   ")
			}
			if i == 7 {
				b.WriteString(" ")
			}
		}
		b.WriteString(" |")
		for _, c := range line {
			if c < 0x20 || c > 0x7e {
				c = '.'
			}
			b.WriteByte(c)
		}
		b.WriteString("|\n")
	}
	if canonical {
		fmt.Fprintf(&b, "%08x\n", len(data))
	} else {
		fmt.Fprintf(&b, "%07x\n", len(data))
	}
	io.WriteString(w, b.String())
	return true
}
