#pragma once
// The framing of a torch.save pickle (data.pkl), checked before libtorch's unpickler reads it.
// libtorch allocates what a length field says before it reads the bytes (a 735-byte file whose
// string claims 4 GB allocates 4 GB), and grows its memo table to whatever index a PUT names. This
// walks the opcodes without building anything: every length must fit in the bytes that remain,
// every memo index must be the next one or one already set, every opcode must be one pickle
// defines, and the pickle must end with STOP exactly at its last byte.
#include <string>
#include <string_view>

namespace geomsim::train {

// Throws InvalidArgument(argument, "<path>: its pickle ...") naming the opcode and its offset.
void check_tensor_pickle(std::string_view pickle, const std::string& path, const std::string& argument);

}  // namespace geomsim::train
