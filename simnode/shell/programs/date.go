package programs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"wink.dev/wink/simnode/shell/process"
)

// Date is date [-u] [-d DATE] [-r FILE] [-I[SPEC]] [-R] [+FORMAT]: the
// container's clock (UTC: a container's TZ is UTC unless set), or DATE,
// in FORMAT's strftime conversions
// (https://www.gnu.org/software/coreutils/manual/html_node/date-invocation.html;
// busybox date takes the same conversions and the -d forms below).
func Date(p *process.Proc, argv []string) int {
	o := newOptions("date")
	o.BoolP("utc", "u", false, "")
	o.Bool("universal", false, "")
	when := o.StringP("date", "d", "", "")
	ref := o.StringP("reference", "r", "", "")
	iso := o.StringP("iso-8601", "I", "", "")
	o.Lookup("iso-8601").NoOptDefVal = "date"
	rfc := o.BoolP("rfc-email", "R", false, "")
	ops, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	t := p.Now().UTC()
	if *when != "" {
		d, ok := parseDate(*when, t)
		if !ok {
			p.Eprintln("date: invalid date '" + *when + "'")
			return 1
		}
		t = d
	}
	if *ref != "" {
		if _, err := lstat(p, *ref); err != nil {
			p.Eprintln("date: " + *ref + ": " + process.PosixFileError(err, false))
			return 1
		}
	}
	format := "%a %b %e %H:%M:%S %Z %Y"
	switch {
	case len(ops) > 0 && strings.HasPrefix(ops[0], "+"):
		format = ops[0][1:]
	case len(ops) > 0:
		p.NotSimulated("date: setting the clock")
		p.Eprintln("date: cannot set date: Operation not permitted")
		return 1
	case *rfc:
		format = "%a, %d %b %Y %H:%M:%S %z"
	case *iso != "":
		format = map[string]string{"date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z", "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z"}[*iso]
		if format == "" {
			p.Eprintln("date: invalid argument '" + *iso + "' for '--iso-8601'")
			return 1
		}
	}
	p.Println(strftime(format, t))
	return 0
}

// parseDate reads -d's DATE: @SECONDS, now, today, yesterday, tomorrow,
// ISO 8601 dates and times (YYYY-MM-DD, YYYY-MM-DD[T ]hh:mm[:ss][Z|±hh:mm]),
// hh:mm[:ss] today, and GNU's relative items "[+-]N unit [ago]".
func parseDate(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if secs, ok := strings.CutPrefix(s, "@"); ok {
		n, err := strconv.ParseInt(secs, 10, 64)
		return time.Unix(n, 0).UTC(), err == nil
	}
	switch strings.ToLower(s) {
	case "now", "today":
		return now, true
	case "yesterday":
		return now.AddDate(0, 0, -1), true
	case "tomorrow":
		return now.AddDate(0, 0, 1), true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02", "2006/01/02", "2006-01-02 15:04:05 MST", time.RFC1123Z, time.RFC1123, time.UnixDate, time.ANSIC} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC), true
		}
	}
	return relativeDate(s, now)
}

// relativeDate is GNU date's relative items: "1 day ago", "+2 hours",
// "-30 min", "next week", "3 days".
func relativeDate(s string, now time.Time) (time.Time, bool) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 {
		return now, false
	}
	t := now
	for len(f) > 0 {
		n := 1
		if v, err := strconv.Atoi(f[0]); err == nil {
			n, f = v, f[1:]
		} else if f[0] == "next" || f[0] == "last" {
			if f[0] == "last" {
				n = -1
			}
			f = f[1:]
		}
		if len(f) == 0 {
			return now, false
		}
		unit := strings.TrimSuffix(f[0], "s")
		f = f[1:]
		if len(f) > 0 && f[0] == "ago" {
			n, f = -n, f[1:]
		}
		switch unit {
		case "sec", "second":
			t = t.Add(time.Duration(n) * time.Second)
		case "min", "minute":
			t = t.Add(time.Duration(n) * time.Minute)
		case "hour":
			t = t.Add(time.Duration(n) * time.Hour)
		case "day":
			t = t.AddDate(0, 0, n)
		case "week":
			t = t.AddDate(0, 0, 7*n)
		case "fortnight":
			t = t.AddDate(0, 0, 14*n)
		case "month":
			t = t.AddDate(0, n, 0)
		case "year":
			t = t.AddDate(n, 0, 0)
		default:
			return now, false
		}
	}
	return t, true
}

// strftime formats t as strftime(3) and GNU date's conversions do.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		// GNU flags: - (no padding), _ (spaces), 0 (zeros), and %:z
		pad := byte(0)
		if strings.IndexByte("-_0^#", format[i]) >= 0 && i+1 < len(format) {
			pad = format[i]
			i++
		}
		num := func(v, width int) string {
			switch pad {
			case '-':
				return strconv.Itoa(v)
			case '_':
				return fmt.Sprintf("%*d", width, v)
			}
			return fmt.Sprintf("%0*d", width, v)
		}
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'C':
			b.WriteString(num(t.Year()/100, 2))
		case 'y':
			b.WriteString(num(t.Year()%100, 2))
		case 'm':
			b.WriteString(num(int(t.Month()), 2))
		case 'd':
			b.WriteString(num(t.Day(), 2))
		case 'e':
			if pad == 0 {
				pad = '_'
			}
			b.WriteString(num(t.Day(), 2))
		case 'H':
			b.WriteString(num(t.Hour(), 2))
		case 'k':
			if pad == 0 {
				pad = '_'
			}
			b.WriteString(num(t.Hour(), 2))
		case 'I', 'l':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			if format[i] == 'l' && pad == 0 {
				pad = '_'
			}
			b.WriteString(num(h, 2))
		case 'M':
			b.WriteString(num(t.Minute(), 2))
		case 'S':
			b.WriteString(num(t.Second(), 2))
		case 'N':
			b.WriteString(fmt.Sprintf("%09d", t.Nanosecond()))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'j':
			b.WriteString(num(t.YearDay(), 3))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b.WriteString(strconv.Itoa(wd))
		case 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'P':
			b.WriteString(strings.ToLower(t.Format("PM")))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case ':':
			if i+1 < len(format) && format[i+1] == 'z' {
				i++
				b.WriteString(t.Format("-07:00"))
			} else {
				b.WriteString("%:")
			}
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'D', 'x':
			b.WriteString(t.Format("01/02/06"))
		case 'X':
			b.WriteString(t.Format("15:04:05"))
		case 'r':
			b.WriteString(t.Format("03:04:05 PM"))
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'G':
			y, _ := t.ISOWeek()
			b.WriteString(strconv.Itoa(y))
		case 'V':
			_, w := t.ISOWeek()
			b.WriteString(num(w, 2))
		case 'U':
			b.WriteString(num((t.YearDay()+6-int(t.Weekday()))/7, 2))
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

// Touch is touch [-acm] [-d DATE | -t STAMP | -r FILE] FILE...: creates
// each file that is missing (not with -c). The file system keeps no
// times: a time given must still be valid, as touch checks it first
// (https://www.gnu.org/software/coreutils/manual/html_node/touch-invocation.html).
func Touch(p *process.Proc, argv []string) int {
	o := newOptions("touch")
	noCreate := o.BoolP("no-create", "c", false, "")
	o.BoolP("a", "a", false, "")
	o.BoolP("m", "m", false, "")
	o.BoolP("h", "h", false, "")
	when := o.StringP("date", "d", "", "")
	stamp := o.StringP("t", "t", "", "")
	ref := o.StringP("reference", "r", "", "")
	files, ok := o.parse(p, argv[1:])
	if !ok {
		return 1
	}
	if *when != "" {
		if _, ok := parseDate(*when, p.Now()); !ok {
			p.Eprintln("touch: invalid date '" + *when + "'")
			return 1
		}
	}
	if *stamp != "" && !validStamp(*stamp) {
		p.Eprintln("touch: invalid date format '" + *stamp + "'")
		return 1
	}
	if *ref != "" {
		if _, err := lstat(p, *ref); err != nil {
			p.Eprintln("touch: failed to get attributes of '" + *ref + "': " + process.PosixFileError(err, false))
			return 1
		}
	}
	if len(files) == 0 {
		p.Eprintln("touch: missing file operand")
		return 1
	}
	code := 0
	for _, f := range files {
		if p.IsNullDevice(f) {
			continue
		}
		if _, err := lstat(p, f); err == nil || *noCreate {
			continue
		}
		if err := p.WriteFile(f, nil, false); err != nil {
			p.Eprintln(fmt.Sprintf("touch: %s: %s", f, process.PosixFileError(err, true)))
			code = 1
		}
	}
	return code
}

// validStamp checks touch -t's [[CC]YY]MMDDhhmm[.ss].
func validStamp(s string) bool {
	main, secs, hasSecs := strings.Cut(s, ".")
	digits := func(x string) bool {
		for _, c := range x {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	if !digits(main) || !digits(secs) || hasSecs && len(secs) != 2 {
		return false
	}
	var layout string
	switch len(main) {
	case 8:
		layout = "01021504"
	case 10:
		layout = "0601021504"
	case 12:
		layout = "200601021504"
	default:
		return false
	}
	if hasSecs {
		if n, _ := strconv.Atoi(secs); n > 60 {
			return false
		}
	}
	_, err := time.Parse(layout, main)
	return err == nil
}
