package profile

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// userHZ is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const userHZ = 100

// cpuSeconds maps each component with a pid to its CPU time so far (user
// and system), from /proc/<pid>/stat; a process gone reads as absent.
func (p *Phase) cpuSeconds() map[string]float64 {
	out := map[string]float64{}
	for _, c := range p.components {
		if c.PID == nil {
			continue
		}
		pid := c.PID()
		if pid == 0 {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if s, err := parseStatCPU(string(data)); err == nil {
			out[c.Name] = s
		}
	}
	return out
}

// parseStatCPU reads utime+stime (fields 14 and 15) of a /proc/<pid>/stat
// line in seconds. The command name (field 2) may hold spaces and
// parentheses, so fields are counted after its last ')'.
func parseStatCPU(stat string) (float64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/<pid>/stat: no command name in %q", stat)
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state): utime is field 14, f[11].
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/<pid>/stat: %d fields after the command name, want at least 13", len(f))
	}
	utime, err := strconv.ParseFloat(f[11], 64)
	if err != nil {
		return 0, err
	}
	stime, err := strconv.ParseFloat(f[12], 64)
	if err != nil {
		return 0, err
	}
	return (utime + stime) / userHZ, nil
}

// machineTicks are /proc/stat's aggregate CPU times.
type machineTicks struct{ busy, total float64 }

func readMachine() machineTicks {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTicks{}
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return parseMachine(line)
}

// parseMachine reads /proc/stat's "cpu" line: idle and iowait (fields 4
// and 5) are not busy; guest time is already counted in user.
func parseMachine(line string) machineTicks {
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return machineTicks{}
	}
	var t machineTicks
	for i, v := range f[1:] {
		if i >= 8 { // guest, guest_nice: part of user already
			break
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return machineTicks{}
		}
		t.total += n
		if i != 3 && i != 4 {
			t.busy += n
		}
	}
	return t
}

// busySince is the share of the machine's CPU time busy since start.
func (t machineTicks) busySince(start machineTicks) float64 {
	d := t.total - start.total
	if d <= 0 {
		return 0
	}
	return (t.busy - start.busy) / d
}
