package programs

import "testing"

// TestHexdumpText: the expected texts are util-linux hexdump's (the same
// formats as busybox's) for the same bytes. Row E.
func TestHexdumpText(t *testing.T) {
	alpha := []byte("abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopabcdefghijklmnop")
	zeros := make([]byte, 64)
	for _, tc := range []struct {
		name               string
		data               []byte
		canonical, verbose bool
		want               string
	}{
		{
			name: "configmap binaryData (configmap_volume.go)", canonical: true,
			data: []byte{0xde, 0xca, 0xfe, 0xba, 0xd0, 0xfe, 0xff},
			want: "00000000  de ca fe ba d0 fe ff                              |.......|\n00000007\n",
		},
		{
			name: "canonical, several lines", canonical: true, data: alpha,
			want: "00000000  61 62 63 64 65 66 67 68  69 6a 6b 6c 6d 6e 6f 70  |abcdefghijklmnop|\n" +
				"00000010  71 72 73 74 75 76 77 78  79 7a 30 31 32 33 34 35  |qrstuvwxyz012345|\n" +
				"00000020  36 37 38 39 61 62 63 64  65 66 67 68 69 6a 6b 6c  |6789abcdefghijkl|\n" +
				"00000030  6d 6e 6f 70 61 62 63 64  65 66 67 68 69 6a 6b 6c  |mnopabcdefghijkl|\n" +
				"00000040  6d 6e 6f 70                                       |mnop|\n" +
				"00000044\n",
		},
		{
			name: "two-byte words", data: []byte("abcdefghijklmnopqrstu"),
			want: "0000000 6261 6463 6665 6867 6a69 6c6b 6e6d 706f\n0000010 7271 7473 0075                         \n0000015\n",
		},
		{
			name: "repeated lines squeezed", canonical: true, data: zeros,
			want: "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000040\n",
		},
		{
			name: "-v shows every line", canonical: true, verbose: true, data: zeros[:32],
			want: "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n" +
				"00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n00000020\n",
		},
		{name: "empty", canonical: true, want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hexdumpText(tc.data, tc.canonical, tc.verbose); got != tc.want {
				t.Errorf("hexdumpText:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
