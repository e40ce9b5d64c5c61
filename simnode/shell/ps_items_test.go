package shell

import "testing"

// TestGetChildItemRecurse: Get-ChildItem's recursion and filters, on the
// directories of its reference page's examples
// (https://learn.microsoft.com/powershell/module/microsoft.powershell.management/get-childitem?view=powershell-5.1).
func TestGetChildItemRecurse(t *testing.T) {
	parent := func(f *fixture) { // Example 8's C:\Parent
		f.fs.add(`C:\Parent\file.txt`, "f")
		f.fs.add(`C:\Parent\SubDir_Level1\file.txt`, "f")
		f.fs.add(`C:\Parent\SubDir_Level1\SubDir_Level2\file.txt`, "f")
		f.fs.add(`C:\Parent\SubDir_Level1\SubDir_Level2\SubDir_Level3\file.txt`, "f")
	}
	logs := func(f *fixture) { // Examples 4 and 5's C:\Test
		f.fs.add(`C:\Test\anotherfile.txt`, "a")
		f.fs.add(`C:\Test\Command.txt`, "c")
		f.fs.add(`C:\Test\CreateTestFile.ps1`, "p")
		f.fs.add(`C:\Test\Logs\Afile.txt`, "a")
		f.fs.add(`C:\Test\Logs\LogFile1.txt`, "l")
		f.fs.add(`C:\Test\Logs\systemlog1.log`, "s")
		f.fs.mkdir(`C:\Test\Logs\Adirectory`)
		f.fs.mkdir(`C:\Test\Logs\AnEmptyDirectory`)
		f.fs.add(`C:\Test\Logs\Backup\ATextFile.txt`, "t")
	}
	runCases(t, []tcase{
		{name: "-Depth 2 lists the directory and two levels below (Example 8)", setup: parent,
			argv: ps(`Get-ChildItem -Path C:\Parent -Depth 2 -Name`),
			out: "SubDir_Level1\r\nfile.txt\r\nSubDir_Level1\\SubDir_Level2\r\nSubDir_Level1\\file.txt\r\n" +
				"SubDir_Level1\\SubDir_Level2\\SubDir_Level3\r\nSubDir_Level1\\SubDir_Level2\\file.txt\r\n"},
		{name: "-Depth 2 formatted by directory (Example 8)", setup: parent,
			argv:   ps(`Get-ChildItem -Path C:\Parent -Depth 2`),
			outHas: []string{"    Directory: C:\\Parent\r\n", "    Directory: C:\\Parent\\SubDir_Level1\r\n", "    Directory: C:\\Parent\\SubDir_Level1\\SubDir_Level2\r\n", "SubDir_Level3\r\n"},
			outNot: []string{"Directory: C:\\Parent\\SubDir_Level1\\SubDir_Level2\\SubDir_Level3"}},
		{name: "-Recurse -File -Filter", setup: logs,
			argv: ps(`Get-ChildItem C:\Test -Recurse -File -Filter *.txt -Name`),
			out:  "anotherfile.txt\r\nCommand.txt\r\nLogs\\Afile.txt\r\nLogs\\LogFile1.txt\r\nLogs\\Backup\\ATextFile.txt\r\n"},
		{name: "-Recurse -Directory", setup: logs,
			argv: ps(`(Get-ChildItem C:\Test -Recurse -Directory).FullName`),
			out:  "C:\\Test\\Logs\r\nC:\\Test\\Logs\\Adirectory\r\nC:\\Test\\Logs\\AnEmptyDirectory\r\nC:\\Test\\Logs\\Backup\r\n"},
		{name: "-Include needs the directory's contents (Example 4)", setup: logs,
			argv: ps(`Get-ChildItem -Path C:\Test\ -Include *.txt; 'then'; Get-ChildItem -Path C:\Test\* -Include *.txt -Name`),
			out:  "then\r\nanotherfile.txt\r\nCommand.txt\r\n"},
		{name: "-Recurse -Include", setup: logs,
			argv: ps(`Get-ChildItem -Path C:\Test\ -Recurse -Include *.log -Name`),
			out:  "Logs\\systemlog1.log\r\n"},
		{name: "-Exclude (Example 5)", setup: logs,
			argv: ps(`Get-ChildItem -Path C:\Test\Logs -Exclude A* -Name`),
			out:  "Backup\r\nLogFile1.txt\r\nsystemlog1.log\r\n"},
		{name: "a wildcard path with -Recurse, subdirectories first (Example 3)", setup: logs,
			argv: ps(`Get-ChildItem -Path C:\Test\*.txt -Recurse -Name`),
			out:  "Logs\\Backup\\ATextFile.txt\r\nLogs\\Afile.txt\r\nLogs\\LogFile1.txt\r\nanotherfile.txt\r\nCommand.txt\r\n"},
	})
}

// TestNewItemLinks: New-Item -ItemType SymbolicLink and Junction with
// -Target, the alias of -Value
// (https://learn.microsoft.com/powershell/module/microsoft.powershell.management/new-item?view=powershell-5.1),
// as AgentBaker's configfunc.ps1 makes C:\WindowsAzure\Logs\aks's link to
// the custom data log; -Force makes a file's missing directories (the
// page's Example 3).
func TestNewItemLinks(t *testing.T) {
	admin := func(f *fixture) {
		f.env.User = "ContainerAdministrator"
		f.fs.add(`C:\AzureData\CustomDataSetupScript.log`, "setup done\r\n")
	}
	aks := `$aksLogFolder="C:\WindowsAzure\Logs\aks"
New-Item -ItemType Directory -Force -Path $aksLogFolder > $null
New-Item -ItemType SymbolicLink -Path (Join-Path $aksLogFolder "CustomDataSetupScript.log") -Target "C:\AzureData\CustomDataSetupScript.log" > $null
`
	runCases(t, []tcase{
		{name: "AgentBaker's symbolic link reads as its target", setup: admin,
			argv: ps(aks + `Get-Content C:\WindowsAzure\Logs\aks\CustomDataSetupScript.log; (Get-ChildItem C:\WindowsAzure\Logs\aks).Mode`),
			out:  "setup done\r\n-a---l\r\n"},
		{name: "ContainerUser may not make a symbolic link",
			setup:  func(f *fixture) { f.fs.add(`C:\AzureData\CustomDataSetupScript.log`, "x") },
			argv:   ps(aks),
			errHas: []string{"New-Item : Administrator privilege required for this operation."}, code: 1},
		{name: "a junction needs no privilege and writes through",
			argv: ps(`New-Item -ItemType Junction -Path C:\rw\j -Target C:\data > $null; Set-Content C:\rw\j\new.txt 'via junction'; Get-Content C:\data\new.txt`),
			out:  "via junction\r\n"},
		{name: "the target must exist",
			argv:   ps(`New-Item -ItemType Junction -Path C:\rw\j -Value C:\nope`),
			errHas: []string{"New-Item : Cannot find path 'C:\\nope' because it does not exist."}, code: 1},
		{name: "-Force makes a file's missing directories",
			argv: ps(`New-Item -ItemType File -Force C:\rw\a\b\c.txt > $null; Test-Path C:\rw\a\b\c.txt`),
			out:  "True\r\n"},
	})
}
