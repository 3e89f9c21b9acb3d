"""One rank of test_torch_conventions.py's gather test: python3 torch_gather_worker.py RANK WORLD FOLDER.

Joins a Gloo process group through a file store in FOLDER, then, for each case of FOLDER/cases.json,
takes its rows [RANK b, (RANK + 1) b) of the global batch in FOLDER/data.pt, computes the loss with
the case's gather and differentiates it; writes [(value, gradient of its rows)] to FOLDER/rankRANK.pt.
"""
import datetime
import json
import os
import sys

import torch
import torch.distributed as dist

import geomsim.torch as gt

rank, world, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
dist.init_process_group("gloo", init_method="file://" + os.path.join(folder, "store"), rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=60))
data = torch.load(os.path.join(folder, "data.pt"))
with open(os.path.join(folder, "cases.json")) as f:
    cases = json.load(f)
labels = data["labels"]
local = labels.shape[0] // world
mine = slice(rank * local, (rank + 1) * local)
results = []
for k, case in enumerate(cases):
    loss = gt.Loss(case["loss"], contrast_mode=case.get("contrast_mode", "all"), gather=case["gather"],
                   **case["parameters"])
    features = data["features"][k][mine].clone().requires_grad_(True)
    value = loss(features if case["views"] > 1 else features[:, 0], labels[mine])
    value.backward()
    results.append((value.item(), features.grad))
torch.save(results, os.path.join(folder, f"rank{rank}.pt"))
dist.destroy_process_group()
