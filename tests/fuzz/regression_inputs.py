"""Writes the reproducers of issue 33's hostile files, OUT/<harness>/NAME, for run_fuzzers.sh to
run through each harness (every one must then pass: no crash, leak, timeout or oversized
allocation). They are generated rather than committed: several are large, and the code says
what each one is. Findings of the fuzzer itself, minimised, are committed under
tests/fuzz/regressions/<harness>/ instead.

Run by make_corpus.sh with Debian's python3 (torch for the torch.save ones).
"""
import gzip
import io
import pathlib
import struct
import sys
import zipfile
import zlib

import torch

out = pathlib.Path(sys.argv[1])


def write(harness, name, data):
    folder = out / harness
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data.encode() if isinstance(data, str) else data)


def deep_array(depth):
    return "[" * depth + "]" * depth


def zip_of(entries):
    """A zip of stored entries, as torch.save and torch.jit.save write them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return buffer.getvalue()


def saved_entries(value):
    buffer = io.BytesIO()
    torch.save(value, buffer)
    archive = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    return [(name, archive.read(name)) for name in archive.namelist()]


# IDX: a gzip of a bare header claiming 1 x 2 450 484 834 bytes, and a plain 16-byte header
# claiming 3 x 1000 x 1 000 000: read_idx allocated (and zeroed) the claimed size before reading.
write("idx", "gzip-header-claims-2.45GB.gz", gzip.compress(struct.pack(">III", 0x802, 1, 2_450_484_834), mtime=0))
write("idx", "header-claims-3GB", struct.pack(">IIII", 0x803, 3, 1000, 1_000_000))

# CIFAR (not in the issue: found by reading the reader while writing the IDX ones): a 1.5 MB
# gzip of 1.5 GiB of zeros, which read_cifar_binary inflates whole into memory (an
# ostringstream that doubles past 2 GiB) before checking anything.
compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
chunk = bytes(1 << 24)
bomb = b"".join(compressor.compress(chunk) for _ in range(96)) + compressor.flush()
write("cifar", "gzip-inflates-to-1.5GiB.bin.gz", bomb)

# torch.save: the pickle's first string (BINUNICODE 'storage') said to be 0xfffffff0 bytes long;
# libtorch's unpickler allocates the claimed length. The zip around it is valid (CRCs match).
entries = saved_entries(torch.zeros(2, 3))
hostile = []
for name, data in entries:
    if name.endswith("data.pkl"):
        at = data.index(b"X\x07\x00\x00\x00storage")
        data = data[:at + 1] + struct.pack("<I", 0xFFFFFFF0) + data[at + 5:]
    hostile.append((name, data))
write("torch_save", "pickle-string-claims-4GB.pt", zip_of(hostile))
# A corrupt archive: the pickle cut off after its persistent id (valid zip, truncated data.pkl).
corrupt = [(name, data[:99] if name.endswith("data.pkl") else data) for name, data in entries]
write("torch_save", "pickle-cut-short.pt", zip_of(corrupt))
# A valid zip (every CRC right, so verify_archive passes it) without the "version" record:
# libtorch's PyTorchStreamReader throws from its constructor after miniz allocated its reader
# state, which is never freed (LeakSanitizer: 580 bytes in 8 allocations, read as embeddings and
# as labels). Found by fuzz_torch_save; the corrupt archive it found is committed in
# tests/fuzz/regressions/torch_save/. Checking the zip is not enough: the records libtorch
# requires must be checked before it reads the file.
write("torch_save", "zip-without-version-record.pt", zip_of([e for e in entries if not e[0].endswith("/version")]))

# Deep JSON: 100 000 nested arrays as a hierarchy value and as a sims definition's parameter;
# the message (or dump) of the value recursed once per level and overflowed the stack.
write("hierarchy", "deep-100000-arrays.json", '{"0": ' + deep_array(100_000) + "}")
write("sim_definition", "deep-100000-arrays.json",
      '{"name": "deep", "title": "deep", "kind": "alpha_spread", "parameters": {"alphas": ' + deep_array(100_000) + "}}")

# A zip bomb for the archive check: one deflated entry of 64 MiB of zeros (about 64 KB) and a
# central directory of 2 000 entries that all point at it; each is inflated in turn.
compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
size = 64 << 20
deflated = b"".join(compressor.compress(bytes(1 << 20)) for _ in range(64)) + compressor.flush()
crc = 0
for _ in range(64):
    crc = zlib.crc32(bytes(1 << 20), crc)
name = b"archive/data/0"
local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(deflated), size, len(name), 0) + name
directory = b"".join(
    struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(deflated), size, len(name), 0, 0, 0, 0, 0, 0) + name
    for _ in range(2000))
end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 2000, 2000, len(directory), len(local) + len(deflated), 0)
write("archive", "2000-entries-over-one-64MiB-deflated.zip", local + deflated + directory + end)

# Run caches: 20 001 rows whose last repeats the first key (the duplicate check compared each
# row with all before it), and a header of 200 004 columns (each checked against all before it).
rows = ["method,seed,accuracy"] + [f"m{k},{k},0.5" for k in range(20_000)] + ["m0,0,0.5"]
write("run_cache", "20001-rows-last-repeats-a-key.csv", "\n".join(rows) + "\n")
write("run_cache", "200004-columns.csv", ",".join(f"c{k}" for k in range(200_004)) + "\n")

# npy: shape (0, 2**64 - 1), refused as "0 x -1 embeddings" instead of naming the stated shape
# (a wrong message, not a crash: the harness passes; the CLI's bad-input table checks the text).
header = "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 18446744073709551615), }"
header += " " * (-(10 + len(header) + 1) % 64) + "\n"
write("npy", "shape-0-by-2pow64-1.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())

# Issue 53's environment variables (fuzz_launch_environment, lines NAME=VALUE): a Slurm array ID
# of 2**63 - 1 with MIN -1, whose difference overflowed and ran as shard 0 of 4; a WORLD_SIZE of
# 2**24, accepted and failing only after minutes of opening sockets; RANK without WORLD_SIZE.
write("launch_environment", "array-id-2pow63-1-min-minus-1.env",
      "SLURM_ARRAY_TASK_ID=9223372036854775807\nSLURM_ARRAY_TASK_COUNT=4\nSLURM_ARRAY_TASK_MIN=-1\n")
write("launch_environment", "world-size-2pow24.env", "RANK=0\nWORLD_SIZE=16777216\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=29500\n")
write("launch_environment", "rank-without-world-size.env", "RANK=0\n")
# ... and a definition whose name holds a line break and gnuplot code (fuzz_sim_definition: a name
# that is no plain file stem must be refused, never loaded).
write("sim_definition", "name-with-gnuplot-code.json",
      '{"name": "nl\\nsystem(\\"touch PWNED\\")\\n#", "title": "nl", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2, 3]}}')
