#pragma once
// NumPy's .npy format (versions 1.0, 2.0 and 3.0), read strictly: float32/float64 or integer
// arrays in C order, little-endian. Everything else is refused with InvalidArgument naming the
// option and the file and saying what was found: a bad magic string or version, a header that
// is not the dictionary NumPy writes ({'descr': ..., 'fortran_order': ..., 'shape': (...)},
// each key once, nothing else), a structured, object, string, complex, bool or big-endian
// dtype, Fortran order, a negative or overflowing dimension, data shorter or longer than the
// header promises. The size is checked against the file and against the memory this process
// can use before anything is allocated.
//
// Why not xtensor's xnpy (libxtensor-dev 0.24): it allocates the size the header states before
// checking it against the file, never checks that the data was read in full (a truncated file
// or a header promising more rows loads as uninitialised memory, returned as numbers), turns a
// negative dimension into std::bad_alloc, and fixes the element type at compile time.
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim {

struct NpyHeader {
  std::string descr;               // e.g. "<f8"
  char kind = 0;                   // 'f', 'i' or 'u'
  std::size_t item_size = 0;       // bytes per element
  std::vector<std::size_t> shape;  // () for a scalar
  std::size_t data_offset = 0;     // where the data starts in the file
  std::size_t count() const;       // product of the shape
};

// Parses the header of the .npy file at `path` and checks the file's size against it. Only a
// regular file is read (a FIFO or a device is refused unopened), and a shape whose size
// overflows a signed 64-bit byte count (its nonzero dimensions, as NumPy counts) is refused
// with the shape as the file states it, e.g. "(0, 18446744073709551615)".
NpyHeader read_npy_header(const std::string& path, const std::string& argument);

// "(3, 4)", "(5,)", "()": a shape as NumPy prints it.
std::string npy_shape_text(const std::vector<std::size_t>& shape);

// The array as doubles, C order: float32 or float64 only. `what` names the data in the memory
// check ("embeddings").
std::vector<double> read_npy_floats(const std::string& path, const std::string& argument, NpyHeader& header,
                                    const std::string& what);

// The array as integers: any signed or unsigned integer dtype, each value within int.
std::vector<int> read_npy_integers(const std::string& path, const std::string& argument, NpyHeader& header);

// The .npy bytes of a C-order float64 (kind 'f', item 8) or int64 (kind 'i', item 8) array,
// version 1.0, as numpy.save writes them; for tests and for geomsim's own outputs.
std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<double>& values);
std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<std::int64_t>& values);

}  // namespace geomsim
