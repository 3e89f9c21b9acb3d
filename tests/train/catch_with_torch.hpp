#pragma once
// Catch2 for tests that use libtorch. Debian's libtorch pulls in glog, whose CHECK macro would
// replace Catch2's (an uncounted abort instead of a reported assertion) if torch came second:
// include torch first, then Catch2, whose CHECK wins.
#include <torch/torch.h>

#include <catch2/catch.hpp>
