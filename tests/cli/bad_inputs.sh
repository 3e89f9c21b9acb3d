#!/usr/bin/env bash
# The bad-input table: runs every row of bad_inputs.tsv (one refused or hostile command line per
# row) against geomsim and checks, for each, its exit status, a phrase of its message, and that
# no file was created or changed except those the row names as its output.
#
# Usage: bad_inputs.sh PATH/TO/geomsim SOURCE_DIR [TORCHSCRIPT_FIXTURES_DIR]
#
# Each row runs in a scratch folder ($W) prepared below with the inputs the rows refer to: a
# checkpoint, corrupt copies of it, IDX files, sweep CSVs, sims/ definitions. Rows that need the
# training module are skipped when geomsim was built without it; rows that need a full disk run
# with a 64 kB tmpfs filled to the last byte mounted on $W/full, rows that need one out of inodes
# with a tmpfs on $W/full whose inodes are all taken but N (unshare -m; both skipped where
# mounting is not allowed). The totals are printed by exit status.
set -u
geomsim=${1:?usage: bad_inputs.sh PATH/TO/geomsim SOURCE_DIR [TORCHSCRIPT_FIXTURES_DIR]}
source_dir=${2:?usage: bad_inputs.sh PATH/TO/geomsim SOURCE_DIR [TORCHSCRIPT_FIXTURES_DIR]}
source_dir=$(realpath "$source_dir")
FIX=${3:-}
[ -n "$FIX" ] && FIX=$(realpath "$FIX")
geomsim=$(realpath "$geomsim")
table="$source_dir/tests/cli/bad_inputs.tsv"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
W="$T/w"      # the rows' scratch folder
OUT="$T/out"  # each row's stdout, stderr and listings (outside W, so they change nothing there)
mkdir -p "$W" "$OUT"
FM=/usr/share/datasets/fashion-mnist
# A tiny training run: its data and budget ($TRAIN) and its network and schedule ($NET), apart so that
# a row can give other values of the second (CLI11 refuses an option given twice).
TRAIN="--model mlp --train-samples 128 --test-samples 100 --batch-size 32"
NET="--epochs 2 --width 16 --embedding-dim 8"
# A tiny robustness run (ERM on the undersampled set).
ROB="--dataset undersampled --method erm --model mlp --width 8 --embedding-dim 4 --train-per-subclass 8 --validation-per-subclass 4 --test-per-subclass 4 --epochs 2 --batch-size 16"
export W FIX FM TRAIN NET ROB

# --- what the rows can run on --------------------------------------------------------------
have_torch=0
[ -x "$(dirname "$geomsim")/geomsim-torch" ] && have_torch=1
have_fulldisk=0
mkdir -p "$T/probe"
unshare -m sh -c "mount -t tmpfs -o size=64k tmpfs '$T/probe'" 2>/dev/null && have_fulldisk=1
rmdir "$T/probe"

# --- the inputs the rows refer to ------------------------------------------------------------
prepare() {
  cd "$W" || exit 1
  mkdir -p full sub fm noexec
  # A gnuplot first on PATH that is not executable (PATH=$W/noexec: posix_spawnp fails with EACCES).
  printf '#!/bin/sh\nexit 0\n' >noexec/gnuplot && chmod 644 noexec/gnuplot
  ln -s "$FM"/* fm/  # Fashion-MNIST by links: a refusal that failed would replace a link, not the data
  echo '{"sentinel": true}' >existing.json
  # A sweep CSV of two points, and copies damaged as no sweep writes them.
  "$geomsim" sweep --K 2 --ny 2 --d 2 --alpha 0.6,0.7 --tau 0.5 --seeds 0:1 --solver slsqp --out sweep.csv -q || return 1
  python3 - <<'PY' || return 1
import csv
rows = list(csv.reader(open("sweep.csv")))
def damaged(name, column, value, quote=False):
    out = [list(r) for r in rows]
    out[2][rows[0].index(column)] = value
    with open(name, "w") as f:
        for r in out:
            f.write(",".join('"%s"' % v if quote and i == rows[0].index(column) and r is out[2] else v for i, v in enumerate(r)) + "\n")
damaged("sweep-nan.csv", "loss", "nan")
damaged("sweep-inf.csv", "spread", "inf")
damaged("sweep-negk.csv", "K", "-2")
damaged("sweep-quoted.csv", "seeds", "0:1", quote=True)
damaged("sweep-wordk.csv", "K", "two")
PY
  # sims/ definitions: a valid one, a hostile title, a parameter of the wrong type.
  mkdir -p sims-ok sims-evil sims-seeds
  cat >sims-ok/ok.json <<'JSON'
{"name": "ok", "title": "ok", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2, 3]}}
JSON
  cat >sims-evil/evil.json <<'JSON'
{"name": "evil", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2, 3]},
 "title": "x'; system(\"touch PWNED1\"); print 'y \" `touch PWNED2` \"; system(\"touch PWNED3\") @x\n! touch PWNED4"}
JSON
  cat >sims-seeds/seeds.json <<'JSON'
{"name": "seeds", "title": "seeds", "kind": "alpha_spread",
 "parameters": {"K": 2, "ny": 2, "d": 2, "tau": 0.5, "alpha": [0.6], "seeds": 5}}
JSON
  # Issue 53: definitions whose name holds a line break and then gnuplot code (the name is the
  # stem of the figure's `set output '...'`): one that report runs, one that experiment runs.
  mkdir -p sims-newline sims-newline-trained
  cat >sims-newline/nl.json <<'JSON'
{"name": "nl\nsystem(\"touch PWNED\")\n#", "title": "nl", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2, 3]}}
JSON
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["name"] = "nl\nsystem(\"touch PWNED\")\n#"; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/figure-2-trained.json" sims-newline-trained/figure-2-trained.json || return 1
  # Issue 53: definitions that would overwrite each other's files (one name twice, or names that
  # differ only in case), one named like the report's index README.md, and CSVs for geomsim plot
  # with finite values no gnuplot axis holds.
  mkdir -p sims-dupname sims-dupcase sims-readme
  cp sims-ok/ok.json sims-dupname/a.json
  cp sims-ok/ok.json sims-dupname/b.json
  cp sims-ok/ok.json sims-dupcase/a.json
  sed 's/"name": "ok"/"name": "OK"/' sims-ok/ok.json >sims-dupcase/b.json
  sed 's/"name": "ok"/"name": "ReadMe"/' sims-ok/ok.json >sims-readme/readme.json
  printf 'a,b\n1,2\n2,1e308\n' >huge-y.csv
  printf 'a,b\n-1e308,2\n2,3\n' >huge-x.csv
  # Issue 31: definitions with a list where one value is expected, or curves a kind cannot draw;
  # CSVs for geomsim plot: a sweep whose tau varies, rows that repeat a point, an empty file, a
  # header without rows, and a sweep CSV named like a figure's output.
  mkdir -p sims-listk sims-curves sims-pscurves
  cat >sims-listk/listk.json <<'JSON'
{"name": "listk", "title": "K as a list", "kind": "alpha_spread",
 "parameters": {"K": [2, 3, 4, 5], "ny": 2, "d": 5, "tau": 0.5, "alpha": [0.6, 0.8], "seeds": "0:1", "curves": "d"}}
JSON
  cat >sims-curves/curves.json <<'JSON'
{"name": "curves", "title": "curves by alpha", "kind": "alpha_spread",
 "parameters": {"K": 2, "ny": 2, "d": 2, "tau": 0.5, "alpha": [0.6, 0.8], "seeds": "0:1", "curves": "alpha"}}
JSON
  cat >sims-pscurves/ps.json <<'JSON'
{"name": "ps", "title": "point sets by K", "kind": "point_sets",
 "parameters": {"K": [2, 3], "ny": 2, "d": 2, "tau": 0.5, "alpha": [0.6], "seeds": "0:1", "curves": "K"}}
JSON
  "$geomsim" sweep --K 2 --ny 2 --d 2 --alpha 0.6,0.7 --tau 0.5,1 --seeds 0:1 --solver slsqp --out sweep-tau.csv -q || return 1
  printf 'a,b,c\n1,2,x\n1,3,y\n' >repeat.csv
  : >empty.csv
  printf 'a,b\n' >header-only.csv
  cp sweep.csv q.gp
  # Hostile files (issue 33): files that are not files (FIFOs, with no writer), a sparse 2 GB file
  # of zero bytes, JSON nested 100 000 deep, run caches that cost quadratic time to check, an .npy
  # whose shape overflows.
  mkfifo fifo.csv || return 1
  truncate -s 2G big.csv || return 1
  # Issue 53: a sparse CSV of a quarter of the memory available: its size fits, but not the 25 bytes
  # per byte that geomsim plot's fields and figure take (kTextCsvBytesPerFileByte).
  truncate -s $(($(awk '/^MemAvailable:/ {print $2}' /proc/meminfo) * 1024 / 4)) plot-big.csv || return 1
  mkdir -p sims-fifo sims-deep sims-train cache-duplicate cache-wide
  mkfifo sims-fifo/fifo.json || return 1
  cp "$source_dir/sims/figure-2-trained.json" sims-train/ || return 1
  # Issue 29: notes that quote a claim the definition does not have (it has 4).
  mkdir -p sims-notes
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["notes"] = "F1: {verdict 9}"; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/figure-2-trained.json" sims-notes/figure-2-trained.json || return 1
  # Issue 30, seed 001's learning-rate sweep: a rate of 0 among the swept ones (the smoke grid's),
  # and a steadier claim that fixes the axis it varies over.
  mkdir -p sims-lr sims-steady
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["smoke"]["lr"] = [0.001, 0]; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/supcon-vs-ce.json" sims-lr/supcon-vs-ce.json || return 1
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["claims"][1]["a"]["lr"] = "0.001"; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/supcon-vs-ce.json" sims-steady/supcon-vs-ce.json || return 1
  # ... and the corruption page's switch given as a list.
  mkdir -p sims-corrupt
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["parameters"]["corruptions"] = [True, False]; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/corruption-calibration.json" sims-corrupt/corruption-calibration.json || return 1
  # ... seed 002's clusters and coloured backgrounds: a fractional cluster count among the
  # swept ones, a chance outside [0, 1], and a clustering method with no cluster count.
  mkdir -p sims-clusters sims-colour sims-noclusters
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["smoke"]["cond_clusters"] = [3, 2.5]; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/fair-infonce-clusters.json" sims-clusters/fair-infonce-clusters.json || return 1
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["parameters"]["colour_backgrounds"] = 1.5; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/fair-colour.json" sims-colour/fair-colour.json || return 1
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["parameters"]["cond_clusters"]; del d["smoke"]["cond_clusters"]; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/fair-colour.json" sims-noclusters/fair-colour.json || return 1
  # ... seed 001's number of positives swept for a method that does not read it.
  mkdir -p sims-positives
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["parameters"]["methods"] = ["spread"]; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/supcon-positives.json" sims-positives/supcon-positives.json || return 1
  # ... seed 000's label noise swept past 1.
  mkdir -p sims-noise
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["smoke"]["label_noise"] = [0, 1.5]; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/noisy-labels.json" sims-noise/noisy-labels.json || return 1
  # ... and its probe's share of the labels past 1.
  mkdir -p sims-probe
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["parameters"]["probe_labels"] = 1.5; json.dump(d, open(sys.argv[2], "w"))' \
    "$source_dir/sims/noisy-labels.json" sims-probe/noisy-labels.json || return 1
  # ... seed 000's coresets: one folder per broken parameter (the name stays the definition's).
  python3 - "$source_dir/sims/coreset-seed000.json" <<'PY' || return 1
import json, os, sys
variants = {
    "method": ("parameters", "methods", ["random", "herding"]),
    "size-zero": ("smoke", "sizes", [0, 0.5]),
    "size-large": ("smoke", "sizes", [1.5]),
    "size-batch": ("smoke", "sizes", [0.1]),
    "probe": ("parameters", "probe_labels", 0),
    "el2n": ("smoke", "el2n_epoch", 2),
    "runs": ("smoke", "score_runs", 0),
    "fraction": ("smoke", "spread_fractions", [2]),
}
for name, (part, key, value) in variants.items():
    d = json.load(open(sys.argv[1]))
    d[part][key] = value
    os.makedirs("sims-coreset-" + name, exist_ok=True)
    json.dump(d, open("sims-coreset-" + name + "/coreset-seed000.json", "w"))
PY
  python3 - <<'PY' || return 1
deep = "[" * 100000 + "]" * 100000
open("deep.json", "w").write('{"0": ' + deep + "}")
open("sims-deep/deep.json", "w").write('{"name": "deep", "title": "deep", "kind": "c_threshold", "parameters": {"tau": ' + deep + "}}")
# A run cache of figure-2-trained (its key columns) of 20 001 rows, the last repeating a key.
key = "method,hierarchy,encoder,seed,alpha,tau,augmentation"
with open("cache-duplicate/figure-2-trained.csv", "w") as f:
    f.write(key + ",spread\n")
    for seed in range(20000):
        f.write("spread,fmnist-2,cnn,%d,0.5,0.5,simclr,0.25\n" % seed)
    f.write("spread,fmnist-2,cnn,7,0.5,0.5,simclr,0.5\n")
# A header of 200 004 columns.
open("cache-wide/figure-2-trained.csv", "w").write(key + "".join(",c%d" % k for k in range(199997)) + "\n")
# An .npy of shape (0, 2**64 - 1): no data, and a dimension that fits no index.
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 18446744073709551615), }"
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
open("overflow.npy", "wb").write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
PY
  # IDX files: a small valid pair (100 images of 28 x 28) and broken ones.
  python3 - <<'PY' || return 1
import gzip, struct, zlib
def idx(dims, body):
    return b"\0\0\x08" + bytes([len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + body
open("images.idx", "wb").write(idx([100, 28, 28], bytes(range(256)) * 306 + bytes(64)))
open("labels.idx", "wb").write(idx([100], bytes(i % 10 for i in range(100))))
open("ev'il `x`.idx", "wb").write(open("images.idx", "rb").read())
open("truncated.idx", "wb").write(idx([100, 28, 28], bytes(1000)))
open("badmagic.idx", "wb").write(b"\1\2\3\4" + bytes(100))
open("trailing.idx", "wb").write(idx([1, 28, 28], bytes(784 + 5)))
packed = gzip.compress(idx([100, 28, 28], bytes(100 * 784)))
open("corrupt.idx.gz", "wb").write(packed[:len(packed) - 12])  # cut inside its last block
open("zero.idx", "wb").write(idx([0, 28, 28], b""))
open("overflow.idx", "wb").write(idx([0xffffffff] * 4, bytes(16)))
open("huge.idx", "wb").write(idx([1 << 20, 1 << 20, 1 << 20], bytes(16)))
# A gzip bomb: a 100-image header, its data, then 64 MB of zeros (64 kB compressed).
bomb = zlib.compressobj(1, zlib.DEFLATED, 31)
with open("bomb.idx.gz", "wb") as f:
    f.write(bomb.compress(open("images.idx", "rb").read()))
    for _ in range(64):
        f.write(bomb.compress(bytes(1 << 20)))
    f.write(bomb.flush())
PY
  # Saved embeddings for measure --embeddings (read without libtorch too): 40 unit vectors, 2
  # classes of 2 subclasses; copies with a NaN, with 39 rows, and a zip archive as torch.save
  # writes them (the format told by its first bytes), written without torch.
  /usr/bin/python3 -c "
import numpy as np, zipfile
rng = np.random.default_rng(0); s = np.repeat(np.arange(4), 10); x = rng.normal(size=(40, 8))
z = x / np.linalg.norm(x, axis=1, keepdims=True)
np.save('z.npy', z); np.save('y.npy', s // 2); np.save('s.npy', s)
np.savetxt('y.csv', s // 2, fmt='%d')
y = s // 2; y[5] = 2**31 - 1; np.savetxt('y-huge-id.csv', y, fmt='%d')
u = (s // 2).astype(np.uint64); u[3] = 0xfdffffffffffffff; np.save('y-u64.npy', u)  # fuzz_npy's finding
big = z.copy(); big[2, 3] = 1e200; np.save('z-huge.npy', big)
np.save('z39.npy', z[:39]); np.save('s39.npy', s[:39])
z[3, 1] = np.nan; np.save('z-nan.npy', z); np.savetxt('z-nan.csv', z, delimiter=',')
with zipfile.ZipFile('z.pt', 'w') as f: f.writestr('archive/data.pkl', b'')" || return 1
  if [ "$have_torch" -eq 1 ]; then
    # m.pt: $TRAIN's run stopped after its first epoch (so a resume with its options is legal).
    "$geomsim" train $TRAIN $NET --stop-after 1 --checkpoint m.pt -q || return 1
    head -c 300 m.pt >truncated.pt
    head -c 4096 /dev/urandom >random.pt
    cp m.pt fig.csv  # a checkpoint that a figure stem's CSV would overwrite
    # r.pt: $ROB's end model stopped after its first epoch.
    "$geomsim" robustness $ROB --stop-after 1 --checkpoint r.pt -q || return 1
    cp "$FIX/cnn.pt" cnn.pt
    # Issue 53: checkpoints whose inputs then change at the same paths, which a resume must see: an
    # IDX pair whose images are then others, a hierarchy file whose two classes are then swapped, and
    # a Fashion-MNIST folder (of links) whose training images are then others.
    mkdir -p swap fmswap
    cp images.idx swap/images.idx
    printf '%s\n' 0,0 1,0 2,0 3,0 4,0 5,1 6,0 7,1 8,1 9,1 >swap/h.csv
    ln -s "$FM"/* fmswap/
    "$geomsim" train $TRAIN $NET --images swap/images.idx --labels labels.idx --stop-after 1 --checkpoint swap-images.pt -q || return 1
    "$geomsim" train $TRAIN $NET --hierarchy swap/h.csv --stop-after 1 --checkpoint swap-h.pt -q || return 1
    "$geomsim" robustness $ROB --data fmswap --stop-after 1 --checkpoint swap-r.pt -q || return 1
    python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); open(sys.argv[1], "wb").write(d[:16] + d[16:].translate(bytes(range(255, -1, -1))))' swap/images.idx || return 1
    printf '%s\n' 0,1 1,1 2,1 3,1 4,1 5,0 6,1 7,0 8,0 9,0 >swap/h.csv
    # Other training images for fmswap/ (each pixel inverted), outside $W: too large to checksum after every row.
    mkdir -p "$T/swapped" || return 1
    python3 -c 'import gzip, sys; d = gzip.open(sys.argv[1]).read(); gzip.open(sys.argv[2], "wb", 1).write(d[:16] + d[16:].translate(bytes(range(255, -1, -1))))' \
      "$FM/train-images-idx3-ubyte.gz" "$T/swapped/train-images-idx3-ubyte.gz" || return 1
    ln -sf "$T/swapped/train-images-idx3-ubyte.gz" fmswap/train-images-idx3-ubyte.gz
    # Copies changed after writing (a flipped byte in a weight tensor or a compressed entry), and
    # copies whose description disagrees with the weights, rewritten with valid CRCs.
    python3 - <<'PY' || return 1
import struct, zipfile
def flip(src, dst, pick):
    data = bytearray(open(src, "rb").read())
    info = pick(zipfile.ZipFile(src).infolist())
    name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    data[info.header_offset + 30 + name_length + extra_length + info.compress_size // 2] ^= 0x10
    open(dst, "wb").write(data)
flip("m.pt", "flipped.pt", lambda infos: max((i for i in infos if "/data/" in i.filename), key=lambda i: i.file_size))
flip("cnn.pt", "cnn-flipped.pt", lambda infos: next(i for i in infos if i.compress_type == zipfile.ZIP_DEFLATED))
flip("r.pt", "r-flipped.pt", lambda infos: max((i for i in infos if "/data/" in i.filename), key=lambda i: i.file_size))
def described(dst, old, new):
    src = zipfile.ZipFile("m.pt")
    out = zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED)
    for info in src.infolist():
        data = src.read(info.filename)
        if info.filename.endswith("data.pkl") and old in data:
            start = data.index(b'{"autoencoder"')
            length = struct.unpack("<I", data[start - 4:start])[0]
            text = data[start:start + length].replace(old, new, 1)
            data = data[:start - 4] + struct.pack("<I", len(text)) + text + data[start + length:]
        out.writestr(info, data)
    out.close()
described("nine.pt", b'"embedding_dim":8', b'"embedding_dim":9')
described("width165.pt", b'"width":16', b'"width":16.5')
described("badtype.pt", b'"hierarchy":"fmnist-2"', b'"hierarchy":5')
PY
  fi
  # --- issue 33, training side: hostile IDX, torch.save and checkpoint files, files that are not files.
  # $LARGE holds the inputs too large to checksum after every row (the zip bombs):
  # outside $W, so the rows' listings skip them.
  LARGE="$T/large"
  mkdir -p "$LARGE" || return 1
  mkfifo pipe.fifo || return 1
  python3 - "$LARGE" <<'PY' || return 1
import gzip, struct, sys, zlib
def idx(dims, body=b""):
    return b"\0\0\x08" + bytes([len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + body
open("idx-claim.idx.gz", "wb").write(gzip.compress(idx([1, 2450484834])))  # claims 2.45 GB in ~30 bytes
open("idx-claim.idx", "wb").write(idx([3, 1000, 1000000]))  # a 16-byte header that claims 3 GB
def bomb(path, name, data, method, size, crc, listed):
    """One entry's local header and data, then a central directory that lists it `listed` times."""
    local = struct.pack("<IHHHHHIIIHH", 0x04034b50, 20, 0, method, 0, 0, crc, len(data), size, len(name), 0) + name + data
    entry = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014b50, 20, 20, 0, method, 0, 0, crc, len(data), size, len(name), 0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<IHHHHIIH", 0x06054b50, 0, 0, listed, listed, len(entry) * listed, len(local), 0)
    with open(path, "wb") as f:
        f.write(local + entry * listed + end)
large = sys.argv[1]
stored = bytes(1 << 20)
bomb(large + "/listed.pt", b"archive/data/0", stored, 0, len(stored), zlib.crc32(stored), 65534)
deflate, crc = zlib.compressobj(9, zlib.DEFLATED, -15), 0
chunks, zeros = [], bytes(1 << 20)
for _ in range(64):  # 64 MiB of zeros (64 kB deflated), listed 65 534 times: 4 TB to inflate
    chunks.append(deflate.compress(zeros))
    crc = zlib.crc32(zeros, crc)
chunks.append(deflate.flush())
bomb(large + "/deflated.pt", b"archive/data/0", b"".join(chunks), 8, 64 << 20, crc, 65534)
PY
  if [ "$have_torch" -eq 1 ]; then
    /usr/bin/python3 - <<'PY' || return 1
import struct, torch, zipfile
torch.save(torch.zeros(4, 2), "pt-ok.pt")
def rewritten(src, dst, change):
    """src's entries through change(name, bytes), written with valid CRCs."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            zout.writestr(info, change(info.filename, zin.read(info.filename)))
def long_string(name, data):  # the pickle's first BINUNICODE says ~4 GB
    if not name.endswith("data.pkl"):
        return data
    at = data.index(b"X")
    return data[:at + 1] + struct.pack("<I", 0xfffffff0) + data[at + 5:]
rewritten("pt-ok.pt", "pt-string.pt", long_string)
rewritten("pt-ok.pt", "pt-storage.pt", lambda name, data: data[:len(data) // 2] if "/data/" in name else data)
whole = open("pt-ok.pt", "rb").read()
open("pt-cut.pt", "wb").write(whole[:len(whole) - 200])  # cut inside its central directory
def unknown_op(name, data):  # one byte of the model's source changed: torch.relu -> torch.relx
    return data.replace(b"torch.relu(", b"torch.relx(", 1) if name.endswith("/code/__torch__/torch/nn/functional.py") else data
rewritten("cnn.pt", "cnn-source.pt", unknown_op)
PY
    rm pt-ok.pt
  fi
  cd - >/dev/null || return 1
}
if ! prepare >"$OUT/prepare.txt" 2>&1; then
  echo "bad_inputs: could not prepare the inputs:"
  cat "$OUT/prepare.txt"
  exit 1
fi
cp -a "$W" "$T/pristine"  # a failed row's leftovers are undone from this copy

# --- one row -------------------------------------------------------------------------------
# Every folder under W, and every file with its checksum, except under full/ (a tmpfs during a row);
# a file over 100 MB (the sparse big.csv) by its size and time instead, so that no row pays for
# reading it; a FIFO by its name and type.
listing() {
  (cd "$W" && find . -path ./full -prune -o -type d -print | sort &&
    find . -path ./full -prune -o -type f -size -100M -print0 | sort -z | xargs -0 -r md5sum &&
    find . -path ./full -prune -o \( -type f -size +100M -o -type p \) -printf '%p %y %s %T@\n' | sort)
}

declare -A by_status
cases=0 skipped=0 failures=0
run_row() {  # line number, item, exit, needs, expected text, creates, arguments
  local line=$1 item=$2 expected_status=$3 needs=$4 expected=$5 creates=$6 arguments=$7
  if [[ $needs == torch* && $have_torch -eq 0 ]] || [[ $needs == notorch && $have_torch -eq 1 ]] ||
    [[ ($needs == *fulldisk* || $needs == *inodes:*) && $have_fulldisk -eq 0 ]]; then
    skipped=$((skipped + 1))
    return
  fi
  local -a words
  eval "words=($arguments)"  # the table's own shell words; $W, $FIX and $FM expand here
  # Leading NAME=VALUE words: the row's environment variables (run through env(1)).
  local -a environment=()
  while [ "${#words[@]}" -gt 0 ] && [[ ${words[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
    environment+=("${words[0]}")
    words=("${words[@]:1}")
  done
  listing >"$OUT/before"
  local status fill=""
  if [[ $needs == *fulldisk* ]]; then
    # A 64 kB tmpfs on full/, filled to the last byte.
    fill='mount -t tmpfs -o size=64k tmpfs full && { cat /dev/zero >full/filler 2>/dev/null; true; }'
  elif [[ $needs =~ inodes:([0-9]+) ]]; then
    # A tmpfs on full/ of 64 inodes, every one taken by an empty file but N (a file system out of
    # inodes refuses each new file with ENOSPC, however many bytes are free).
    fill="mount -t tmpfs -o size=1m,nr_inodes=64 tmpfs full && { k=0; while : 2>/dev/null >full/filler\$k; do k=\$((k + 1)); done;
          for ((j = 0; j < ${BASH_REMATCH[1]}; j++)); do rm full/filler\$j; done; }"
  fi
  if [ -n "$fill" ]; then
    # In a mount namespace of the row's own.
    (cd "$W" && timeout 120 unshare -m bash -c "$fill"'
        "$@"; status=$?
        ls -A full | grep -v "^filler" >"$0"
        exit $status' "$OUT/full-listing" env "${environment[@]}" "$geomsim" "${words[@]}") >"$OUT/stdout" 2>"$OUT/stderr"
    status=$?
  else
    (cd "$W" && timeout 120 env "${environment[@]}" "$geomsim" "${words[@]}") >"$OUT/stdout" 2>"$OUT/stderr"
    status=$?
  fi
  local problem=""
  [ "$status" -eq "$expected_status" ] || problem="exit $status, expected $expected_status"
  if [ -z "$problem" ] && ! grep -qF -- "$expected" "$OUT/stderr" "$OUT/stdout"; then
    problem="the output lacks '$expected'"
  fi
  if [ -z "$problem" ] && [ -n "$fill" ] && [ -s "$OUT/full-listing" ]; then
    problem="left files on the full disk: $(tr '\n' ' ' <"$OUT/full-listing")"
  fi
  # Each file the row creates must exist (non-empty); then nothing else may differ.
  local created
  local -a outputs=()
  [ "$creates" != "-" ] && eval "outputs=($creates)"
  if [ -z "$problem" ]; then
    for created in "${outputs[@]}"; do
      [ -s "$W/$created" ] || problem="did not write $created"
    done
  fi
  if [ -z "$problem" ]; then
    for created in "${outputs[@]}"; do rm -f "$W/$created"; done
    # Folders the row's outputs went into, when it created them.
    for created in "${outputs[@]}"; do
      [[ $created == */* ]] && { rmdir "$W/$(dirname "$created")" 2>/dev/null || true; }
    done
    listing >"$OUT/after"
    if ! diff "$OUT/before" "$OUT/after" >"$OUT/diff"; then
      problem="created or changed files: $(grep '^[<>]' "$OUT/diff" | tr '\n' ' ')"
    fi
  fi
  cases=$((cases + 1))
  by_status[$expected_status]=$(( ${by_status[$expected_status]:-0} + 1 ))
  if [ -n "$problem" ]; then
    failures=$((failures + 1))
    echo "FAIL line $line (item $item): geomsim $arguments"
    echo "  $problem"
    sed 's/^/  stderr: /' "$OUT/stderr" | head -5
  fi
  # A failed row must not disturb the next one.
  if [ -n "$problem" ]; then
    rm -rf "$W" && cp -a "$T/pristine" "$W"
  fi
}

line_number=0
while IFS=$'\t' read -r item status needs expected creates arguments || [ -n "$item" ]; do
  line_number=$((line_number + 1))
  [[ -z $item || $item == \#* ]] && continue
  run_row "$line_number" "$item" "$status" "$needs" "$expected" "$creates" "$arguments"
done <"$table"

summary=""
for status in $(printf '%s\n' "${!by_status[@]}" | sort -n); do
  summary+="${summary:+, }exit $status: ${by_status[$status]}"
done
echo "bad_inputs: $cases cases ($summary), $failures failed, $skipped skipped" \
  "(training module: $([ $have_torch -eq 1 ] && echo yes || echo no), full-disk rows: $([ $have_fulldisk -eq 1 ] && echo yes || echo no))"
[ "$failures" -eq 0 ]
