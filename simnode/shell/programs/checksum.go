package programs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// Checksum is md5sum, sha1sum, sha256sum and sha512sum [-c [-sw]] [FILE]...
// (https://www.gnu.org/software/coreutils/manual/html_node/md5sum-invocation.html;
// busybox's md5_sha1_sum.c): "HASH  NAME" per file, or with -c the
// lines of such a list checked: "NAME: OK" or "NAME: FAILED", and exit 1
// with a warning when any failed.
func Checksum(p *process.Proc, argv []string) int {
	tool := process.ProgramName(argv[0], false)
	newHash := map[string]func() hash.Hash{"md5sum": md5.New, "sha1sum": sha1.New, "sha256sum": sha256.New, "sha512sum": sha512.New}[tool]
	if newHash == nil {
		newHash = sha256.New
	}
	o := newOptions(tool)
	check := o.BoolP("check", "c", false, "")
	status := o.BoolP("status", "s", false, "")
	quiet := o.Bool("quiet", false, "")
	warn := o.BoolP("warn", "w", false, "")
	o.BoolP("binary", "b", false, "")
	o.BoolP("text", "t", false, "")
	strict := o.Bool("strict", false, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	sum := func(data []byte) string {
		h := newHash()
		h.Write(data)
		return hex.EncodeToString(h.Sum(nil))
	}
	if !*check {
		names, data, code := readInputs(p, tool, files)
		for i, d := range data {
			name := names[i]
			if name == "" {
				name = "-"
			}
			p.Println(sum(d) + "  " + name)
		}
		return code
	}
	// busybox's wording, or GNU coreutils'
	bb := busybox(p)
	names, lists, code := readInputs(p, tool, files)
	failed, unreadable, total, bad := 0, 0, 0, 0
	for i, list := range lists {
		for n, line := range lines(string(list)) {
			want, name, ok := strings.Cut(line, " ")
			name = strings.TrimPrefix(strings.TrimPrefix(name, " "), "*")
			if !ok || len(want) != newHash().Size()*2 {
				bad++
				if *warn {
					list := names[i]
					if list == "" {
						list = "-"
					}
					p.Eprintln(fmt.Sprintf("%s: %s: %d: improperly formatted %s checksum line", tool, list, n+1, strings.ToUpper(strings.TrimSuffix(tool, "sum"))))
				}
				continue
			}
			total++
			data, err := p.ReadFile(name)
			if err != nil && bb {
				failed++
				p.Eprintln(fmt.Sprintf("%s: can't open '%s': %s", tool, name, process.PosixFileError(err, false)))
				if !*status {
					p.Println(name + ": FAILED")
				}
				continue
			}
			if err != nil {
				unreadable++
				p.Eprintln(fmt.Sprintf("%s: %s: %s", tool, name, process.PosixFileError(err, false)))
				if !*status {
					p.Println(name + ": FAILED open or read")
				}
				continue
			}
			if sum(data) != strings.ToLower(want) {
				failed++
				if !*status {
					p.Println(name + ": FAILED")
				}
			} else if !*status && !*quiet {
				p.Println(name + ": OK")
			}
		}
	}
	if total == 0 {
		p.Eprintln(tool + ": no properly formatted checksum lines found")
		return 1
	}
	if bb && failed > 0 && !*status {
		p.Eprintln(fmt.Sprintf("%s: WARNING: %d of %d computed checksums did NOT match", tool, failed, total))
	}
	if !*status && !bb {
		if bad > 0 {
			p.Eprintln(fmt.Sprintf("%s: WARNING: %d line%s improperly formatted", tool, bad, plural(bad)))
		}
		if unreadable > 0 {
			p.Eprintln(fmt.Sprintf("%s: WARNING: %d listed file%s could not be read", tool, unreadable, plural(unreadable)))
		}
		if failed > 0 {
			p.Eprintln(fmt.Sprintf("%s: WARNING: %d computed checksum%s did NOT match", tool, failed, plural(failed)))
		}
	}
	if failed > 0 || unreadable > 0 || *strict && bad > 0 {
		return 1
	}
	return code
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Base64 is base64 [-d] [-w COLS] [FILE]: encodes (lines of 76
// characters; -w 0 one line) or decodes.
func Base64(p *process.Proc, argv []string) int {
	o := newOptions("base64")
	decode := o.BoolP("decode", "d", false, "")
	wrap := o.IntP("wrap", "w", 76, "")
	o.BoolP("ignore-garbage", "i", false, "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	text, code := readAll(p, "base64", files[:min(len(files), 1)])
	if code != 0 {
		return code
	}
	if *decode {
		clean := strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == ' ' {
				return -1
			}
			return r
		}, text)
		out, err := base64.StdEncoding.DecodeString(clean)
		p.Stdout.Write(out)
		if err != nil {
			p.Eprintln("base64: invalid input")
			return 1
		}
		return 0
	}
	enc := base64.StdEncoding.EncodeToString([]byte(text))
	var b strings.Builder
	for *wrap > 0 && len(enc) > *wrap {
		b.WriteString(enc[:*wrap] + "\n")
		enc = enc[*wrap:]
	}
	if enc != "" {
		b.WriteString(enc + "\n")
	}
	io.WriteString(p.Stdout, b.String())
	return 0
}
