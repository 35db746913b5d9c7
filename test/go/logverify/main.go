// Command logverify is an independent check of the review log, written against Go's
// golang.org/x/mod/sumdb/note and sumdb/tlog rather than this project's code: it opens the
// checkpoint with the pinned key, authenticates every tile it reads through tlog.TileHashReader,
// proves each entry's record hash against the signed tree, and recomputes every served record's
// commitment (SHA-256 of its nonce and its RFC 8785 JSON) against the entry at its log_index.
// With a fourth argument "size:root" it also proves the tree extends that older checkpoint.
//
// Usage: logverify <log prefix> <verifier key> <site URL> [<old size>:<old root>]
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "logverify: "+format+"\n", args...)
	os.Exit(1)
}

func get(url string) []byte {
	resp, err := http.Get(url)
	if err != nil {
		fail("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		fail("GET %s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		fail("GET %s: %v", url, err)
	}
	return data
}

// c2spPath is a tile's path under tlog-tiles: no height element, and tile/entries/ for data.
func c2spPath(t tlog.Tile) string {
	p := t.Path() // tile/8/L/NNN[.p/W], or tile/8/data/NNN for L == -1
	p = strings.TrimPrefix(p, "tile/8/")
	p = strings.Replace(p, "data/", "entries/", 1)
	return "tile/" + p
}

type tileReader struct{ prefix string }

func (r tileReader) Height() int { return 8 }
func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		out[i] = get(r.prefix + "/" + c2spPath(t))
	}
	return out, nil
}
func (r tileReader) SaveTiles([]tlog.Tile, [][]byte) {}

// canonical writes v as RFC 8785 JSON for the shapes a record has: objects, arrays, strings,
// integers, booleans and null (keys are ASCII, so byte order is UTF-16 order).
func canonical(buf *bytes.Buffer, v interface{}) {
	switch x := v.(type) {
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			canonical(buf, k)
			buf.WriteByte(':')
			canonical(buf, x[k])
		}
		buf.WriteByte('}')
	case []interface{}:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			canonical(buf, e)
		}
		buf.WriteByte(']')
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(x)
		s := strings.TrimSuffix(b.String(), "\n")
		s = strings.ReplaceAll(s, `\u2028`, "\u2028")
		s = strings.ReplaceAll(s, `\u2029`, "\u2029")
		buf.WriteString(s)
	case float64:
		if x != float64(int64(x)) {
			fail("a record holds a non-integer number %v", x)
		}
		buf.WriteString(strconv.FormatInt(int64(x), 10))
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case nil:
		buf.WriteString("null")
	default:
		fail("unexpected JSON value %T", v)
	}
}

func main() {
	if len(os.Args) < 4 {
		fail("usage: logverify <log prefix> <verifier key> <site URL> [<old size>:<old root>]")
	}
	prefix, vkey, site := strings.TrimSuffix(os.Args[1], "/"), os.Args[2], strings.TrimSuffix(os.Args[3], "/")
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		fail("verifier key: %v", err)
	}
	n, err := note.Open(get(prefix+"/checkpoint"), note.VerifierList(verifier))
	if err != nil {
		fail("checkpoint: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		fail("checkpoint origin %q is not the key's %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size: %v", err)
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		fail("checkpoint root: %v", err)
	}
	tree := tlog.Tree{N: size, Hash: root}
	hashes := tlog.TileHashReader(tree, tileReader{prefix})
	// RFC 6962 section 2.1: the empty tree's hash is SHA-256 of nothing, where tlog.TreeHash(0) gives zeros.
	empty := tlog.Hash(sha256.Sum256(nil))
	if size == 0 {
		if root != empty {
			fail("tree hash: an empty log's root is %v, not %v", empty, root)
		}
	} else if th, err := tlog.TreeHash(size, hashes); err != nil || th != root {
		fail("tree hash: %v", err)
	}

	// Every entry, from the entry bundles, proven to be the record at its index.
	var entries [][]byte
	for n := int64(0); n*256 < size; n++ {
		w := size - n*256
		if w > 256 {
			w = 256
		}
		data := get(prefix + "/" + c2spPath(tlog.Tile{H: 8, L: -1, N: n, W: int(w)}))
		for len(data) >= 2 {
			l := int(binary.BigEndian.Uint16(data))
			if len(data) < 2+l {
				fail("entry bundle %d ends inside an entry", n)
			}
			entries = append(entries, data[2:2+l])
			data = data[2+l:]
		}
	}
	if int64(len(entries)) != size {
		fail("the entry bundles hold %d entries, the checkpoint says %d", len(entries), size)
	}
	for i, e := range entries {
		h, err := hashes.ReadHashes([]int64{tlog.StoredHashIndex(0, int64(i))})
		if err != nil || h[0] != tlog.RecordHash(e) {
			fail("entry %d is not the record the tree holds at %d", i, i)
		}
	}

	if len(os.Args) > 4 {
		parts := strings.SplitN(os.Args[4], ":", 2)
		oldSize, _ := strconv.ParseInt(parts[0], 10, 64)
		oldRoot, err := tlog.ParseHash(parts[1])
		if err != nil {
			fail("old root: %v", err)
		}
		if oldSize == 0 {
			// Every tree extends the empty one, which tlog.ProveTree does not take.
			if oldRoot != empty {
				fail("the old checkpoint of size 0 has the root %v, not the empty tree's", oldRoot)
			}
		} else {
			proof, err := tlog.ProveTree(size, oldSize, hashes)
			if err != nil {
				fail("consistency proof: %v", err)
			}
			if err := tlog.CheckTree(proof, size, root, oldSize, oldRoot); err != nil {
				fail("the tree of size %d does not extend the one of size %d: %v", size, oldSize, err)
			}
		}
	}

	// Every served record opens the commitment of the entry at its log_index.
	var dataset struct {
		Reviews []map[string]interface{} `json:"reviews"`
	}
	if err := json.Unmarshal(get(site+"/reviews.json"), &dataset); err != nil {
		fail("reviews.json: %v", err)
	}
	for _, r := range dataset.Reviews {
		id, _ := r["id"].(string)
		idx, _ := r["log_index"].(float64)
		nonce, err := base64.StdEncoding.DecodeString(fmt.Sprint(r["log_nonce"]))
		if err != nil || len(nonce) != 32 || int64(idx) >= size {
			fail("%s: bad log_index or log_nonce", id)
		}
		var entry struct{ Event, ID, Commitment string }
		if err := json.Unmarshal(entries[int(idx)], &entry); err != nil || entry.ID != id {
			fail("%s: entry %d is not its entry", id, int(idx))
		}
		logged := map[string]interface{}{}
		for k, v := range r {
			if k != "url" && k != "aspects" && k != "log_index" && k != "log_nonce" {
				logged[k] = v
			}
		}
		var buf bytes.Buffer
		canonical(&buf, logged)
		sum := sha256.Sum256(append(append([]byte{}, nonce...), buf.Bytes()...))
		if base64.StdEncoding.EncodeToString(sum[:]) != entry.Commitment {
			fail("%s does not open the commitment of entry %d", id, int(idx))
		}
	}
	fmt.Printf("ok %s %d entries %d records\n", lines[0], size, len(dataset.Reviews))
}
