"""Writes the fuzzers' seed corpora: a few small valid files per parser, OUT/<harness>/NAME.

Run by make_corpus.sh with Debian's python3 (numpy, torch). Each seed is what the real writer
produces (numpy.save, torch.save, torch.jit.save, zipfile, gzip), so that the fuzzer starts from
inputs that reach the end of each parser; the text formats are written out here as they are
documented in their headers.
"""
import gzip
import io
import pathlib
import struct
import sys
import zipfile

import numpy as np
import torch

out = pathlib.Path(sys.argv[1])


def write(harness, name, data):
    folder = out / harness
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data.encode() if isinstance(data, str) else data)


def npy(array, version=None):
    buffer = io.BytesIO()
    if version is None:
        np.save(buffer, array)
    else:
        np.lib.format.write_array(buffer, array, version=version)
    return buffer.getvalue()


def saved(value):
    buffer = io.BytesIO()
    torch.save(value, buffer)
    return buffer.getvalue()


# npy: float embeddings and integer labels, the three header versions.
write("npy", "float64-4x3.npy", npy(np.arange(12, dtype="<f8").reshape(4, 3) / 7))
write("npy", "float32-3x2.npy", npy(np.linspace(-1, 1, 6, dtype="<f4").reshape(3, 2)))
write("npy", "int64-5.npy", npy(np.array([0, 1, 2, 1, 0], dtype="<i8")))
write("npy", "int32-3x1.npy", npy(np.array([[2], [0], [1]], dtype="<i4")))
write("npy", "uint8-4-v2.npy", npy(np.array([3, 1, 4, 1], dtype="u1"), version=(2, 0)))
write("npy", "float64-scalar-v3.npy", npy(np.array(2.5), version=(3, 0)))

# CSV tables of numbers, with and without a header.
write("csv_table", "header.csv", "x,y,label\n0.5,-1.25,0\n1e-3,2,1\n3,4.5,2\n")
write("csv_table", "plain.csv", "1,2,3\n4,5,6\n")
write("csv_table", "labels.csv", "0\n1\n1\n0\n")

# The run cache of a training experiment: parameters, then metrics (an empty cell: not measured).
write("run_cache", "runs.csv",
      "method,hierarchy,seed,epochs,accuracy,spread\n"
      "thanos,fmnist-2,0,5,0.91,0.12\n"
      "thanos,fmnist-2,1,5,0.9,\n"
      "supcon,fmnist-2,0,5,0.88,0.03\n")
write("run_cache", "header-only.csv", "method,seed\n")

# A sweep CSV as sweep_csv writes it (the header must be exact).
sweep_header = ("K,ny,d,alpha,tau,seeds,solver,cluster_tol,loss,spread,geometry,atoms,max_atoms,collapsed_loss,"
                "uniform_loss,predicted_regime,predicted_spread,predicted_loss,threshold,window_end,converged_runs,runs,seconds\n")
write("sweep_csv", "sweep.csv", sweep_header +
      "3,8,3,0.64,0.5,0 1,slsqp,0.001,-1.5,0.25,atoms,4+4|4+4|4+4,2,-1.2,-1.6,split,0.26,-1.51,0.6,0.7,2,2,0.05\n"
      "2,8,5,0.7,0.5,0,rlbfgs,0.001,-2,0.5,spread,8|8,8,,-2.1,spread,,,0.4,,1,1,0.01\n")
write("sweep_csv", "header-only.csv", sweep_header)

# Hierarchy files: the JSON forms and the CSV form.
write("hierarchy", "flat.json", '{"0": 0, "1": 0, "2": 1, "3": 1}')
write("hierarchy", "full.json", '{"fine_to_coarse": [0, 1, 1, 0, 2], "coarse_names": ["a", "b", "c"],'
                                ' "fine_names": ["v", "w", "x", "y", "z"]}')
write("hierarchy", "object.json", '{"fine_to_coarse": {"0": 1, "1": 0, "2": 1}}')
write("hierarchy", "pairs.csv", "fine,coarse\n0,0\n1,1\n2,0\n3,1\n")

# IDX: an image file and a label file, plain and gzipped.
images = struct.pack(">I3I", 0x803, 3, 4, 5) + bytes(range(60))
labels = struct.pack(">II", 0x801, 3) + bytes([0, 9, 4])
write("idx", "images-idx3-ubyte", images)
write("idx", "labels-idx1-ubyte", labels)
write("idx", "images-idx3-ubyte.gz", gzip.compress(images, mtime=0))
write("idx", "labels-idx1-ubyte.gz", gzip.compress(labels, mtime=0))

# CIFAR: two CIFAR-10 records (label, 3072 bytes) and two CIFAR-100 ones (coarse, fine, 3072).
pixels = bytes((7 * k) % 256 for k in range(3072))
write("cifar", "cifar10.bin", bytes([3]) + pixels + bytes([9]) + pixels[::-1])
write("cifar", "cifar100.bin", bytes([4, 30]) + pixels + bytes([1, 1]) + pixels[::-1])
write("cifar", "cifar10.bin.gz", gzip.compress(bytes([0]) + pixels, mtime=0))

# torch.save tensors: float embeddings, integer labels.
write("torch_save", "float32-4x3.pt", saved(torch.arange(12, dtype=torch.float32).reshape(4, 3)))
write("torch_save", "float64-2x2.pt", saved(torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64)))
write("torch_save", "int64-5.pt", saved(torch.tensor([0, 1, 1, 2, 0])))
write("torch_save", "int32-3x1.pt", saved(torch.tensor([[1], [0], [1]], dtype=torch.int32)))

# Archives: torch.save and torch.jit.save files (stored entries), and a deflated zip.
write("archive", "tensor.pt", saved(torch.ones(3)))
write("archive", "state.pt", saved({"weight": torch.eye(2), "step": 3}))
module = torch.jit.script(torch.nn.Linear(2, 1))
buffer = io.BytesIO()
torch.jit.save(module, buffer)
write("archive", "linear.ts", buffer.getvalue())
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("archive/data.pkl", b"\x80\x02K\x07." * 20)
    archive.writestr("archive/version", b"3\n")
write("archive", "deflated.zip", buffer.getvalue())

# The launchers' environment variables, lines NAME=VALUE (fuzz_launch_environment): torchrun's
# ranks, an srun job step's tasks on one node and on two, a job array task, and --shard's text.
write("launch_environment", "torchrun-rank1-of-2.env",
      "RANK=1\nWORLD_SIZE=2\nLOCAL_RANK=1\nLOCAL_WORLD_SIZE=2\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=29500\n")
write("launch_environment", "torchrun-one-process.env", "WORLD_SIZE=1\n")
write("launch_environment", "srun-one-node.env", "SLURM_PROCID=3\nSLURM_NTASKS=4\nSLURM_STEP_ID=0\nSLURM_LOCALID=3\nMASTER_PORT=29500\n")
write("launch_environment", "srun-two-nodes.env",
      "SLURM_PROCID=5\nSLURM_NTASKS=8\nSLURM_STEP_ID=0\nSLURM_LOCALID=1\nSLURM_NNODES=2\nMASTER_ADDR=node1\nMASTER_PORT=29500\n")
write("launch_environment", "array-task.env",
      "SLURM_ARRAY_TASK_ID=7\nSLURM_ARRAY_TASK_COUNT=4\nSLURM_ARRAY_TASK_MIN=3\nSLURM_ARRAY_TASK_STEP=2\n")
write("launch_environment", "shard-text.env", "SHARD=2/5\n")
