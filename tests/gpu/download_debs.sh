#!/usr/bin/env bash
# Fetches, on a Debian 12 machine, the .deb files of the build dependencies geomsim's core and
# tests need beyond a C++ compiler, CMake and PyTorch, for tests/gpu/gpu_check.sh --debs DIR on a
# machine that has no Debian archive (a lent GPU machine): headers (Eigen, Boost, CLI11,
# nlohmann-json, Catch2, zlib, and Gloo's, which c10d's headers include) and two shared libraries (NLopt, Boost iostreams). About 13 MB.
#   bash tests/gpu/download_debs.sh DIR
set -euo pipefail
dir=${1:?usage: bash tests/gpu/download_debs.sh DIR}
mkdir -p "$dir"
cd "$dir"
apt-get download libeigen3-dev libnlopt-dev libnlopt-cxx-dev libnlopt0 libnlopt-cxx0 libboost1.74-dev \
  libboost-iostreams1.74-dev libboost-iostreams1.74.0 libcli11-dev nlohmann-json3-dev catch2 zlib1g-dev libgloo-dev
ls -1 "$PWD"/*.deb
