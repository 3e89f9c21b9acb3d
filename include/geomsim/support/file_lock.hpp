#pragma once
// An exclusive lock between processes on a file that several of them rewrite (a run cache that
// the tasks of a job array share): a POSIX record lock (fcntl F_SETLKW) on a sidecar file
// PATH.lock, held from construction to destruction. Record locks are the kind NFS carries (through
// its lock manager) and the kernel drops when the holder exits or is killed, so a crashed writer
// never leaves the lock taken. The sidecar, empty, stays in place: removing it while another
// process waits on it would let two processes hold "the" lock.
#include <string>

namespace geomsim {

class FileLock {
 public:
  // Blocks until the lock on path + ".lock" is held. Throws InvalidArgument(argument, ...)
  // naming the file when it cannot be created or locked.
  FileLock(const std::string& path, const std::string& argument);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int descriptor_ = -1;
};

}  // namespace geomsim
