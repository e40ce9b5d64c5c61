package windows

import (
	"errors"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"wink.dev/wink/simnode/shell/process"
)

// icacls.exe
// (https://learn.microsoft.com/windows-server/administration/windows-commands/icacls):
// shows a path's DACL, and /grant[:r], /deny, /remove[:g|:d],
// /inheritance:e|d|r change it, on the path or (/t) the whole tree, /q
// without the "processed file" lines, /c going on after a failure.
//
// What is modelled: each path keeps the ACEs set on it and whether it
// inherits (process.ACLs, in the container's file system); the ACEs it
// inherits are its parent's inheritable ones, turned as Windows turns
// them ((OI) to files, (CI) to directories, (NP) not further), up to the
// system drive's root, whose DACL is Windows Server's (rootDACL). Not
// modelled: owners (the owner's own ACE that CREATOR OWNER gives a new
// file is not shown), merging the rights of two ACEs of one SID, the
// access checks of the ACEs themselves (reading and writing files go by
// the mounts' read-only flag alone), and /save, /restore, /setowner,
// /reset, /findsid, /verify, /setintegritylevel, /substitute (a
// NotSimulated trace).
//
// Who may change a DACL: WRITE_DAC, which the owner and administrators
// hold. ContainerAdministrator (and SYSTEM) may change any; ContainerUser
// the paths it made, not the image's system directories, owned by
// TrustedInstaller (systemOwned).

// rootDACL is the DACL of the system drive's root of Windows Server.
var rootDACL = []string{
	`NT AUTHORITY\SYSTEM:(OI)(CI)(F)`,
	`BUILTIN\Administrators:(OI)(CI)(F)`,
	`BUILTIN\Users:(OI)(CI)(RX)`,
	`BUILTIN\Users:(CI)(AD)`,
	`BUILTIN\Users:(CI)(IO)(WD)`,
	`CREATOR OWNER:(OI)(CI)(IO)(F)`,
}

// wellKnown maps a friendly name or a *SID to the name icacls prints.
var wellKnown = map[string]string{
	"users": `BUILTIN\Users`, "*s-1-5-32-545": `BUILTIN\Users`,
	"administrators": `BUILTIN\Administrators`, "*s-1-5-32-544": `BUILTIN\Administrators`,
	"system": `NT AUTHORITY\SYSTEM`, "*s-1-5-18": `NT AUTHORITY\SYSTEM`,
	"everyone": "Everyone", "*s-1-1-0": "Everyone",
	"authenticated users": `NT AUTHORITY\Authenticated Users`, "*s-1-5-11": `NT AUTHORITY\Authenticated Users`,
	"creator owner": "CREATOR OWNER", "*s-1-3-0": "CREATOR OWNER",
	"network service": `NT AUTHORITY\NETWORK SERVICE`, "local service": `NT AUTHORITY\LOCAL SERVICE`,
	"containeruser": `User Manager\ContainerUser`, "containeradministrator": `User Manager\ContainerAdministrator`,
}

// icaclsRun is one icacls command line.
type icaclsRun struct {
	p                   *process.Proc
	name                string
	grants, denies      []string // ACEs to add, as printed
	replace             bool     // /grant:r
	removes             []string // SIDs, as printed
	removeOnly          string   // "", "g" or "d"
	inheritance         string   // "", "e", "d" or "r"
	tree, quiet, goesOn bool
}

// Icacls is icacls.exe name [options].
func Icacls(p *process.Proc, argv []string) int {
	r := icaclsRun{p: p}
	var list *[]string
	for _, a := range argv[1:] {
		la := strings.ToLower(a)
		switch {
		case la == "/grant" || la == "/grant:r":
			list, r.replace = &r.grants, r.replace || la == "/grant:r"
		case la == "/deny":
			list = &r.denies
		case la == "/remove" || la == "/remove:g" || la == "/remove:d":
			list, r.removeOnly = &r.removes, strings.TrimPrefix(strings.TrimPrefix(la, "/remove"), ":")
		case strings.HasPrefix(la, "/inheritance:") && len(la) == len("/inheritance:e") && strings.ContainsAny(la[13:], "edr"):
			r.inheritance, list = la[13:], nil
		case la == "/t":
			r.tree, list = true, nil
		case la == "/q":
			r.quiet, list = true, nil
		case la == "/c":
			r.goesOn, list = true, nil
		case la == "/l":
			list = nil
		case strings.HasPrefix(la, "/"):
			p.NotSimulated("icacls " + la)
			return 0
		case list != nil:
			*list = append(*list, a)
		case r.name == "":
			r.name = a
		default:
			return icaclsInvalid(p, a)
		}
	}
	if r.name == "" {
		return icaclsInvalid(p, "")
	}
	return r.run()
}

func icaclsInvalid(p *process.Proc, arg string) int {
	if arg == "" {
		p.Eprintln("No file name was specified.")
	} else {
		p.Eprintln(`Invalid parameter "` + arg + `"`)
	}
	return 87
}

// run resolves the names, then shows or changes each path.
func (r *icaclsRun) run() int {
	p := r.p
	var err error
	if r.grants, err = r.aces(r.grants, ""); err == nil {
		r.denies, err = r.aces(r.denies, "(DENY)")
	}
	for i, sid := range r.removes {
		if err == nil {
			r.removes[i], err = r.sid(sid)
		}
	}
	if err != nil {
		p.Eprintln(err.Error())
		p.Println("Successfully processed 0 files; Failed processing 1 files")
		return 1332
	}
	show := len(r.grants)+len(r.denies)+len(r.removes) == 0 && r.inheritance == ""
	ok, failed, code := 0, 0, 0
	for _, path := range r.paths() {
		if p.Step() != nil {
			return 1
		}
		var err error
		if show {
			err = r.show(path)
		} else {
			err = r.change(path)
		}
		if err != nil {
			failed++
			p.Eprintln(path + ": " + process.CmdFileError(err, false))
			code = 2
			if errors.Is(err, fs.ErrPermission) {
				code = 5
			}
			if !r.goesOn {
				break
			}
			continue
		}
		ok++
		if !show && !r.quiet {
			p.Println("processed file: " + path)
		}
	}
	p.Printf("Successfully processed %d files; Failed processing %d files\n", ok, failed)
	return code
}

// paths is the name and, with /t, everything under it (the directory
// before its entries, entries by name).
func (r *icaclsRun) paths() []string {
	out := []string{r.name}
	if !r.tree {
		return out
	}
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := r.p.ReadDir(dir)
		if err != nil || len(out) > 100000 {
			return
		}
		sort.Slice(ents, func(i, j int) bool { return strings.ToLower(ents[i].Name()) < strings.ToLower(ents[j].Name()) })
		for _, e := range ents {
			child := process.WinJoin(dir, e.Name())
			out = append(out, child)
			if e.IsDir() && !process.IsLink(e.Type()) {
				walk(child)
			}
		}
	}
	walk(r.name)
	return out
}

// show prints path's DACL: its ACEs under one another, after the name.
func (r *icaclsRun) show(path string) error {
	aces, err := r.effective(r.p.Path(path))
	if err != nil {
		return err
	}
	pad := strings.Repeat(" ", len(path)+1)
	for i, ace := range aces {
		if i == 0 {
			r.p.Println(path + " " + ace)
		} else {
			r.p.Println(pad + ace)
		}
	}
	r.p.Println("")
	return nil
}

// change applies the command's changes to path's own DACL.
func (r *icaclsRun) change(path string) error {
	full := r.p.Path(path)
	d, err := dacl(r.p, full)
	if err != nil {
		return err
	}
	if !process.IsAdministrator(r.p.Env) && systemOwned(full) {
		return fs.ErrPermission
	}
	switch r.inheritance {
	case "e":
		d.Protected = false
	case "d":
		inherited, err := r.inherited(full)
		if err != nil {
			return err
		}
		for _, ace := range inherited {
			d.Explicit = append(d.Explicit, strings.Replace(ace, ":(I)", ":", 1))
		}
		d.Protected = true
	case "r":
		d.Protected = true
	}
	for _, sid := range r.removes {
		d.Explicit = slices.DeleteFunc(d.Explicit, func(ace string) bool {
			s, deny := aceSID(ace)
			return strings.EqualFold(s, sid) && (r.removeOnly == "" || (r.removeOnly == "d") == deny)
		})
	}
	for _, ace := range r.grants {
		sid, _ := aceSID(ace)
		if r.replace {
			d.Explicit = slices.DeleteFunc(d.Explicit, func(old string) bool {
				s, deny := aceSID(old)
				return !deny && strings.EqualFold(s, sid)
			})
		}
		d.Explicit = appendNew(d.Explicit, ace)
	}
	for _, ace := range r.denies {
		d.Explicit = appendNew(d.Explicit, ace)
	}
	a, ok := r.p.Env.Files.(process.ACLs)
	if !ok {
		return fs.ErrPermission
	}
	return a.SetDACL(full, d)
}

func appendNew(aces []string, ace string) []string {
	if slices.ContainsFunc(aces, func(a string) bool { return strings.EqualFold(a, ace) }) {
		return aces
	}
	return append(aces, ace)
}

// dacl is path's own DACL; a file system without ACLs has every existing
// path inherit.
func dacl(p *process.Proc, full string) (process.DACL, error) {
	if a, ok := p.Env.Files.(process.ACLs); ok {
		return a.DACL(full)
	}
	if _, err := p.ReadFile(full); err != nil {
		if _, derr := p.ReadDir(full); derr != nil {
			return process.DACL{}, fs.ErrNotExist
		}
	}
	return process.DACL{}, nil
}

// effective is path's DACL in icacls' canonical order: explicit denials,
// explicit grants, inherited denials, inherited grants.
func (r *icaclsRun) effective(full string) ([]string, error) {
	d, err := dacl(r.p, full)
	if err != nil {
		return nil, err
	}
	var inherited []string
	if !d.Protected {
		if inherited, err = r.inherited(full); err != nil {
			return nil, err
		}
	}
	if len(full) <= 3 && !d.Protected {
		inherited = rootDACL
	}
	var out []string
	for _, group := range [][]string{d.Explicit, inherited} {
		for _, deny := range []bool{true, false} {
			for _, ace := range group {
				if _, isDeny := aceSID(ace); isDeny == deny {
					out = append(out, ace)
				}
			}
		}
	}
	return out, nil
}

// inherited is what path inherits from its parent's DACL.
func (r *icaclsRun) inherited(full string) ([]string, error) {
	if len(full) <= 3 {
		return nil, nil
	}
	parent, err := r.effective(process.ParentDir(full))
	if err != nil {
		return nil, err
	}
	_, derr := r.p.ReadDir(full)
	var out []string
	for _, ace := range parent {
		if c, ok := inheritACE(ace, derr == nil); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// inheritACE is the ACE a child file or directory gets from its parent's
// ace (ok false: none): (OI) reaches files, (CI) directories, an (OI)
// ACE stays inherit-only on a directory for the files below it, (NP)
// stops after the child; CREATOR OWNER stays inherit-only.
func inheritACE(ace string, dir bool) (string, bool) {
	i := strings.Index(ace, ":(")
	sid, groups := ace[:i], strings.Split(strings.TrimSuffix(ace[i+2:], ")"), ")(")
	perm := "(" + groups[len(groups)-1] + ")"
	has := func(f string) bool { return slices.Contains(groups[:len(groups)-1], f) }
	oi, ci, np := has("OI"), has("CI"), has("NP")
	pre := "(I)"
	if has("DENY") {
		pre = "(DENY)(I)"
	}
	switch {
	case !dir && oi && sid != "CREATOR OWNER":
		return sid + ":" + pre + perm, true
	case !dir, np && !ci:
		return "", false
	case np:
		return sid + ":" + pre + perm, true
	case sid == "CREATOR OWNER" && (oi || ci):
		return sid + ":" + pre + "(OI)(CI)(IO)" + perm, true
	case oi && ci:
		return sid + ":" + pre + "(OI)(CI)" + perm, true
	case ci:
		return sid + ":" + pre + "(CI)" + perm, true
	case oi:
		return sid + ":" + pre + "(OI)(IO)" + perm, true
	}
	return "", false
}

// aceSID is an ACE's SID and whether it denies.
func aceSID(ace string) (string, bool) {
	i := strings.Index(ace, ":(")
	if i < 0 {
		return ace, false
	}
	return ace[:i], strings.Contains(ace[i:], "(DENY)")
}

// aces turns /grant and /deny arguments (Users:(OI)(CI)M, SYSTEM:F,
// User1:(d,wdac)) into ACEs as icacls prints them; deny is "(DENY)" for
// /deny's.
func (r *icaclsRun) aces(args []string, deny string) ([]string, error) {
	out := make([]string, 0, len(args))
	for _, a := range args {
		i := strings.LastIndex(a, ":")
		if i <= 0 {
			return nil, errors.New(`Invalid parameter "` + a + `"`)
		}
		sid, err := r.sid(a[:i])
		if err != nil {
			return nil, err
		}
		perm := strings.ToUpper(a[i+1:])
		var b strings.Builder
		for strings.HasPrefix(perm, "(") {
			j := strings.Index(perm, ")")
			if j < 0 {
				return nil, errors.New(`Invalid parameter "` + a + `"`)
			}
			b.WriteString(perm[:j+1])
			perm = perm[j+1:]
		}
		if perm != "" {
			b.WriteString("(" + perm + ")")
		}
		if b.Len() == 0 {
			return nil, errors.New(`Invalid parameter "` + a + `"`)
		}
		out = append(out, sid+":"+deny+b.String())
	}
	return out, nil
}

// sid is the name icacls prints for a user or group as given.
func (r *icaclsRun) sid(name string) (string, error) {
	if s, ok := wellKnown[strings.ToLower(name)]; ok {
		return s, nil
	}
	if i := strings.LastIndex(name, `\`); i >= 0 {
		if s, ok := wellKnown[strings.ToLower(name[i+1:])]; ok {
			return s, nil
		}
	}
	if r.p.Env.Accounts != nil && process.HasGroup(r.p.Env.Accounts, name) {
		return process.ComputerName(r.p.Env.Hostname) + `\` + name, nil
	}
	return "", errors.New(name + ": No mapping between account names and security IDs was done.")
}

// systemOwned: the image's system directories, owned by TrustedInstaller,
// whose DACL ContainerUser may not change.
func systemOwned(full string) bool {
	l := strings.ToLower(full)
	if len(l) <= 3 {
		return true
	}
	for _, d := range []string{`c:\windows`, `c:\program files`, `c:\program files (x86)`} {
		if l == d || strings.HasPrefix(l, d+`\`) {
			return true
		}
	}
	return false
}
